"""Cross-references saved in a linker directory as `xrefs.npz`: loaded in a millisecond, looked up in microseconds.

Arrays (no pickle): `xrefs_version` [VERSION], `kb_ids` (the sorted kb_ids, UTF-8, fixed-width bytes),
`offsets` (int64, n + 1) and `values` (uint8): the JSON object `{database: id(s)}` of kb_id `i` is
`values[offsets[i]:offsets[i + 1]]`. `XrefTable` reads it as the read-only mapping kb_id → {database: id(s)} that
`xrefs.read_xrefs` returns as a dict (the TSV is the input format; the linker saves this table).
"""

import json
from pathlib import Path
from typing import Dict, Iterator, Mapping, Optional, Union

import numpy

from ..errors import ArtifactError
from ..retrieval.array_io import load_npz, save_npz

XREF_TABLE_FILE = "xrefs.npz"
VERSION = 1
RESAVE = "Save the linker again (nlp.to_disk or the project's index step), or copy its complete directory."


class XrefTable(Mapping[str, Dict[str, str]]):
    """kb_id → {database: id(s)} over three arrays (see the module docstring)."""

    def __init__(self, kb_ids: numpy.ndarray, offsets: numpy.ndarray, values: numpy.ndarray) -> None:
        self._kb_ids = kb_ids
        self._offsets = offsets
        self._values = values

    @classmethod
    def from_mapping(cls, xrefs: Mapping[str, Mapping[str, str]]) -> "XrefTable":
        """RETURNS (XrefTable): the table of a kb_id → {database: id(s)} mapping (databases kept in order)."""
        if isinstance(xrefs, XrefTable):
            return xrefs
        items = sorted(
            (kb_id.encode("utf8"), json.dumps(dict(dbs), ensure_ascii=False).encode("utf8"))
            for kb_id, dbs in xrefs.items()
        )
        offsets = numpy.zeros(len(items) + 1, dtype=numpy.int64)
        numpy.cumsum([len(value) for _, value in items], out=offsets[1:])
        values = numpy.frombuffer(b"".join(value for _, value in items), dtype=numpy.uint8)
        width = max((len(kb_id) for kb_id, _ in items), default=1)
        kb_ids = numpy.array([kb_id for kb_id, _ in items], dtype=f"S{width}")
        return cls(kb_ids, offsets, values)

    def __len__(self) -> int:
        return len(self._kb_ids)

    def __iter__(self) -> Iterator[str]:
        return (kb_id.decode("utf8") for kb_id in self._kb_ids.tolist())

    def _row(self, kb_id: object) -> int:
        if not isinstance(kb_id, str):
            return -1
        key = kb_id.encode("utf8")
        row = int(numpy.searchsorted(self._kb_ids, key))
        return row if row < len(self._kb_ids) and self._kb_ids[row] == key else -1

    def __contains__(self, kb_id: object) -> bool:
        return self._row(kb_id) >= 0

    def __getitem__(self, kb_id: str) -> Dict[str, str]:
        row = self._row(kb_id)
        if row < 0:
            raise KeyError(kb_id)
        return json.loads(self._values[self._offsets[row] : self._offsets[row + 1]].tobytes())

    def get(self, kb_id: str, default: Optional[Dict[str, str]] = None) -> Optional[Dict[str, str]]:  # type: ignore[override]
        """RETURNS (Optional[Dict[str, str]]): the xrefs of `kb_id` (a new dict), or `default`."""
        row = self._row(kb_id)
        return json.loads(self._values[self._offsets[row] : self._offsets[row + 1]].tobytes()) if row >= 0 else default


def save_xref_table(xrefs: Mapping[str, Mapping[str, str]], path: Union[str, Path]) -> None:
    """Write cross-references as `xrefs.npz` (see the module docstring)."""
    table = XrefTable.from_mapping(xrefs)
    save_npz(
        path,
        {
            "xrefs_version": numpy.asarray([VERSION], dtype=numpy.int64),
            "kb_ids": table._kb_ids,
            "offsets": table._offsets,
            "values": table._values,
        },
    )


def load_xref_table(path: Union[str, Path]) -> XrefTable:
    """Load `xrefs.npz` (memory-mapped); a missing, truncated, corrupt or other-version file raises ArtifactError."""
    path = Path(path)
    if not path.exists():
        raise ArtifactError(path, "cross-reference table not found", RESAVE)
    try:
        arrays = load_npz(path, mmap=True)
        version = int(arrays["xrefs_version"][0])
    except Exception as err:  # zipfile.BadZipFile, KeyError, ValueError, OSError
        raise ArtifactError(path, f"cannot be read ({type(err).__name__}: {err})", RESAVE) from None
    if version != VERSION:
        raise ArtifactError(path, f"cross-reference table version {version}, this spacy_nseen reads {VERSION}", RESAVE)
    try:
        kb_ids, offsets, values = arrays["kb_ids"], arrays["offsets"], arrays["values"]
    except KeyError as err:
        raise ArtifactError(path, f"lacks the array {err}", RESAVE) from None
    problem = _problem(kb_ids, offsets, values)
    if problem:
        raise ArtifactError(path, f"is not a valid cross-reference table ({problem})", RESAVE)
    return XrefTable(kb_ids, offsets, values)


def _problem(kb_ids: numpy.ndarray, offsets: numpy.ndarray, values: numpy.ndarray) -> str:
    if kb_ids.ndim != 1 or kb_ids.dtype.kind != "S" or offsets.ndim != 1 or offsets.dtype != numpy.int64:
        return "kb_ids must be a 1-d bytes array, offsets 1-d int64"
    if values.ndim != 1 or values.dtype != numpy.uint8:
        return "values must be 1-d uint8"
    if len(offsets) != len(kb_ids) + 1 or offsets[0] != 0 or offsets[-1] != len(values):
        return f"{len(kb_ids)} kb_ids, {len(offsets)} offsets, {len(values)} value bytes"
    if (numpy.diff(offsets) < 0).any():
        return "offsets out of order"
    if (kb_ids[1:] <= kb_ids[:-1]).any():
        return "kb_ids not sorted and unique"
    return ""
