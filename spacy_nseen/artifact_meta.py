"""The JSON metadata file of a saved model directory: `{"format_version": ..., "config": {...}, ...}`."""

import json
from pathlib import Path
from typing import Any, Dict, Tuple

from .about import ARTIFACT_FORMAT_VERSION
from .errors import ArtifactError


def read_artifact_meta(path: Path, what: str, fix: str) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """Read and check a metadata file written with this artifact format version.

    path (Path): the JSON file.
    what (str): what the file is, for the messages ("encoder config file").
    fix (str): what the user can do when it is missing, invalid or of another version.
    RETURNS (Tuple[Dict[str, Any], Dict[str, Any]]): the whole metadata and its `config` block.
    Raises ArtifactError naming the file otherwise.
    """
    if not path.is_file():
        raise ArtifactError(path, f"{what} not found", fix)
    try:
        meta = json.loads(path.read_text(encoding="utf8"))
        version, config = meta["format_version"], dict(meta["config"])
    except (ValueError, KeyError, TypeError) as err:
        raise ArtifactError(path, f"not a valid {what} ({err})", fix) from None
    if version != ARTIFACT_FORMAT_VERSION:
        raise ArtifactError(path, f"artifact format {version}, this spacy_nseen reads {ARTIFACT_FORMAT_VERSION}", fix)
    return meta, config
