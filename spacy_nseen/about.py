"""Package metadata and the version of the on-disk artifact format."""

__title__ = "spacy-nseen"
__version__ = "0.2.0"
# Bumped whenever a file written by `to_disk` changes its layout; loading checks it.
ARTIFACT_FORMAT_VERSION = 1
