"""The cell line table on disk: gzip JSON in columns, so that loading it takes milliseconds.

Version 2 (written): `{"format": FORMAT, "version": 2, "source": ..., "keys": "key\\nkey...", "offsets": [...],
"taxa": [...], "n_lines": [...], "starts": "prefix\\n...", "confusable": [key, ...]}`: the sorted keys joined by
newlines (a key is letters and digits only), the taxa of key `i` at `taxa[offsets[i]:offsets[i + 1]]` (best first)
with their numbers of lines in `n_lines`, and the token prefixes a multi-token name can start with that are not keys
themselves (`hek` of `hek293`; see `CellLineTable`), which are costly to derive at load. Version 1 (`"names":
{key: [[taxon, n_lines], ...]}`) still loads, slowly (about 0.6 s), with a warning to rebuild. Nothing is unpickled.
"""

import gzip
import json
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

import numpy

from ..errors import ArtifactError

FORMAT = "spacy_nseen.cell_lines"
VERSION = 2
LEGACY_VERSION = 1
REBUILD = (
    "Rebuild it with `python -m training.data.build_cell_lines` (a pipeline's copy: load the pipeline and "
    "save it again with nlp.to_disk())"
)


@dataclass
class CellLineColumns:
    """A cell line table as columns: sorted keys, each key's taxa (best first) and numbers of lines."""

    keys: List[str]
    offsets: List[int]
    taxa: List[int]
    n_lines: List[int]
    confusable: List[str]
    source: str = ""
    starts: Optional[List[str]] = None  # prefixes that are not keys; None: derive them (version 1 files)


def write_columns(columns: CellLineColumns, path: Union[str, Path]) -> None:
    """Write a table as version-2 gzip JSON (byte-identical for the same table)."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "source": columns.source,
        "keys": "\n".join(columns.keys),
        "offsets": columns.offsets,
        "taxa": columns.taxa,
        "n_lines": columns.n_lines,
        "starts": "\n".join(columns.starts or []),
        "confusable": columns.confusable,
    }
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf8")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as gz:
        gz.write(raw)


def read_columns(path: Union[str, Path]) -> CellLineColumns:
    """Read a table written by `write_columns` (or a version-1 file, with a warning).

    A missing, truncated or corrupt file, another format or version raises an ArtifactError naming the file.
    """
    path = Path(path)
    if not path.exists():
        raise ArtifactError(path, "cell line table not found", REBUILD)
    try:
        with gzip.open(path, "rb") as f:
            data = json.loads(f.read())
    except (OSError, EOFError, UnicodeDecodeError, ValueError) as e:
        raise ArtifactError(
            path, f"cell line table truncated or not gzip JSON ({type(e).__name__}: {e})", REBUILD
        ) from e
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArtifactError(path, f"not a cell line table (format {FORMAT!r})", REBUILD)
    version = data.get("version")
    if version == LEGACY_VERSION:
        warnings.warn(f"{path}: cell line table version {LEGACY_VERSION} loads slowly. {REBUILD}.", stacklevel=3)
        return _legacy_columns(path, data)
    if version != VERSION:
        raise ArtifactError(path, f"cell line table version {version!r}, this code reads version {VERSION}", REBUILD)
    try:
        return _checked(data)
    except (KeyError, TypeError, ValueError) as e:
        raise ArtifactError(path, f"not a valid cell line table ({type(e).__name__}: {e})", REBUILD) from None


def _lines(text: Any) -> List[str]:
    if not isinstance(text, str):
        raise TypeError("keys and starts must be newline-joined strings")
    return text.split("\n") if text else []


def _ints(values: Any, name: str) -> List[int]:
    if not isinstance(values, list):
        raise TypeError(f"'{name}' is not a list")
    return values


def _checked(data: Dict[str, Any]) -> CellLineColumns:
    keys, starts = _lines(data["keys"]), _lines(data["starts"])
    offsets, taxa, n_lines = (_ints(data[name], name) for name in ("offsets", "taxa", "n_lines"))
    if len(offsets) != len(keys) + 1 or offsets[0] != 0 or offsets[-1] != len(taxa) or len(n_lines) != len(taxa):
        raise ValueError(f"{len(keys)} keys, {len(offsets)} offsets, {len(taxa)} taxa, {len(n_lines)} line counts")
    if (numpy.diff(numpy.asarray(offsets, dtype=numpy.int64)) < 0).any():
        raise ValueError("offsets out of order")
    confusable = data["confusable"]
    if not isinstance(confusable, list):
        raise TypeError("'confusable' is not a list")
    return CellLineColumns(keys, offsets, taxa, n_lines, confusable, str(data.get("source", "")), starts)


def _legacy_columns(path: Path, data: Dict[str, Any]) -> CellLineColumns:
    names, confusable = data.get("names"), data.get("confusable", [])
    if not isinstance(names, dict):
        raise ArtifactError(path, "the cell line table has no 'names' object", REBUILD)
    if not isinstance(confusable, list):
        raise ArtifactError(path, "the cell line table's 'confusable' is not a list", REBUILD)
    return columns_from_names(names, confusable, str(data.get("source", "")))


def columns_from_names(names: Dict[str, List[List[int]]], confusable: List[str], source: str = "") -> CellLineColumns:
    """RETURNS (CellLineColumns): the columns of a key → [[taxon, n_lines], ...] table (`starts` left to derive)."""
    keys = sorted(names)
    offsets, taxa, n_lines = [0], [], []
    for key in keys:
        for taxon, count in names[key]:
            taxa.append(int(taxon))
            n_lines.append(int(count))
        offsets.append(len(taxa))
    return CellLineColumns(keys, offsets, taxa, n_lines, sorted(set(confusable) & set(names)), source)
