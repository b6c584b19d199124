"""The offline data mirror: where its directory is given, and its files as the evaluation commands' defaults.

`NSEEN_MIRROR` names the mirror directory (`../shared/data` is the layout the project is developed in). The data
step (`training.data.download.resolve_mirror`) reads it to copy instead of download; the evaluation commands fall
back to the mirror's files for an input not given (`mirror_file`).
"""
import os
from pathlib import Path

MIRROR_ENV = "NSEEN_MIRROR"
DEFAULT_MIRROR = "../shared/data"


def mirror_file(*parts: str) -> Path:
    """A file of the data mirror: under `$NSEEN_MIRROR`, default `../shared/data`, e.g.
    `mirror_file("bioid", "mentions.tsv.gz")`."""
    return Path(os.environ.get(MIRROR_ENV, DEFAULT_MIRROR), *parts)
