"""xrefs.npz: the cross-reference table a linker directory saves, and its checks."""
import numpy
import pytest

from spacy_nseen.errors import ArtifactError
from spacy_nseen.reference.xref_table import XrefTable, load_xref_table, save_xref_table
from spacy_nseen.retrieval.array_io import load_npz, save_npz

XREFS = {"UniProt:P04637": {"NCBIGene": "7157"}, "UniProt:Q00001": {"NCBIGene": "1|2", "HGNC": "HGNC:5"},
         "CHEBI:é": {"X": "ü"}}


def test_round_trip_is_the_mapping(tmp_path):
    path = tmp_path / "xrefs.npz"
    save_xref_table(XREFS, path)
    table = load_xref_table(path)
    assert len(table) == 3 and dict(table.items()) == XREFS and table == XREFS
    assert list(table["UniProt:Q00001"]) == ["NCBIGene", "HGNC"]  # databases in their order
    assert table.get("UniProt:P04637") == {"NCBIGene": "7157"}
    assert table.get("UniProt:P0463") is None and table.get("UniProt:P04637X", {}) == {}
    assert "CHEBI:é" in table and 5 not in table
    with pytest.raises(KeyError):
        table["nope"]


def test_empty_table(tmp_path):
    save_xref_table({}, tmp_path / "x.npz")
    table = load_xref_table(tmp_path / "x.npz")
    assert len(table) == 0 and table.get("a") is None and not table


def test_from_mapping_of_a_table_is_itself():
    table = XrefTable.from_mapping(XREFS)
    assert XrefTable.from_mapping(table) is table


def _rewrite(path, **changes):
    arrays = dict(load_npz(path, mmap=False))
    arrays.update(changes)
    for key in [k for k, v in changes.items() if v is None]:
        del arrays[key]
    save_npz(path, arrays)


@pytest.mark.parametrize("changes,problem", [
    ({"xrefs_version": numpy.asarray([99])}, "version 99"),
    ({"values": None}, "lacks the array"),
    ({"offsets": numpy.asarray([0, 5, 3, 2], dtype=numpy.int64)}, "offsets"),
    ({"kb_ids": numpy.asarray([b"b", b"a", b"c"])}, "not sorted"),
])
def test_bad_tables_name_the_file(tmp_path, changes, problem):
    path = tmp_path / "xrefs.npz"
    save_xref_table(XREFS, path)
    _rewrite(path, **changes)
    with pytest.raises(ArtifactError, match=problem) as err:
        load_xref_table(path)
    assert str(path) in str(err.value) and "Save the linker again" in str(err.value)


def test_missing_and_truncated(tmp_path):
    with pytest.raises(ArtifactError, match="not found"):
        load_xref_table(tmp_path / "xrefs.npz")
    path = tmp_path / "xrefs.npz"
    save_xref_table(XREFS, path)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(ArtifactError, match="cannot be read"):
        load_xref_table(path)
