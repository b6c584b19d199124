import gzip
from pathlib import Path

import numpy
import pytest

from spacy_nseen.errors import ArtifactError
from spacy_nseen.reference.reference_set import ReferenceSet

FIXTURES = Path(__file__).parent.parent / "fixtures"
TSV = (
    "kb_id\tname\tkind\n"
    "UniProt:P16885\tPLC-gamma-2\talternative\n"
    "UniProt:P16885\tPLCG2\tgene_primary\n"
    "UniProt:P16885\tPLCG2\tgene_synonym\n"  # duplicate (kb_id, name): dropped
    "CHEBI:15377\twater\n"  # no kind column
    "CHEBI:15377\t   \tsynonym\n"  # empty name: dropped
    "\n"  # blank line: skipped
    "UniProt:P01112\tRAS\talternative\textra\tcolumns\n"
    "CHEBI:15377\tPLCG2\tsynonym\n"  # one name, two entities: kept for both
)


def write(path: Path, text: str) -> Path:
    if path.suffix == ".gz":
        with gzip.open(path, "wt", encoding="utf8") as file_:
            file_.write(text)
    else:
        path.write_text(text, encoding="utf8")
    return path


def check_parsed(ref: ReferenceSet):
    assert ref.kb_ids == ["UniProt:P16885", "CHEBI:15377", "UniProt:P01112"]
    assert ref.names == ["PLC-gamma-2", "PLCG2", "water", "RAS", "PLCG2"]
    assert ref.kinds == ["alternative", "gene_primary", "", "alternative", "synonym"]
    assert ref.name_entity.dtype == numpy.int32
    assert ref.name_entity.tolist() == [0, 0, 1, 2, 1]
    assert len(ref) == 5 and ref.n_entities == 3


@pytest.mark.parametrize("filename", ["ref.tsv", "ref.tsv.gz"])
def test_parse_plain_and_gzipped(tmp_path, filename):
    check_parsed(ReferenceSet.from_tsv(write(tmp_path / filename, TSV)))


def test_crlf_line_ends(tmp_path):
    check_parsed(ReferenceSet.from_tsv(write(tmp_path / "ref.tsv", TSV.replace("\n", "\r\n"))))


def test_lookups(tmp_path):
    ref = ReferenceSet.from_tsv(write(tmp_path / "ref.tsv", TSV))
    assert ref.entity_index("CHEBI:15377") == 1 and ref.entity_index("CHEBI:0") is None
    assert "UniProt:P01112" in ref and "UniProt:X" not in ref
    assert ref.names_of("UniProt:P16885") == ["PLC-gamma-2", "PLCG2"]
    assert ref.names_of("nope") == []


def test_from_rows_strips_and_drops():
    ref = ReferenceSet.from_rows([(" A:1 ", " x ", "k"), ("A:1", "x", "k2"), ("", "y", ""), ("B:2", "", "")])
    assert ref.kb_ids == ["A:1"] and ref.names == ["x"] and ref.kinds == ["k"]
    with pytest.raises(ValueError, match="same length"):
        ReferenceSet(["A"], ["x", "y"], numpy.zeros(1, numpy.int32), ["", ""])


@pytest.mark.parametrize("filename", ["out.tsv", "out.tsv.gz"])
def test_to_tsv_round_trip(tmp_path, filename):
    ref = ReferenceSet.from_tsv(write(tmp_path / "ref.tsv", TSV))
    ref.to_tsv(tmp_path / filename)
    again = ReferenceSet.from_tsv(tmp_path / filename)
    assert (again.kb_ids, again.names, again.kinds) == (ref.kb_ids, ref.names, ref.kinds)
    numpy.testing.assert_array_equal(again.name_entity, ref.name_entity)


def test_toy_fixture_parses():
    ref = ReferenceSet.from_tsv(FIXTURES / "toy_reference.tsv")
    assert len(ref) == 46 and ref.n_entities == 15
    assert ref.names_of("UniProt:P01112") == ["GTPase HRas", "RAS", "HRAS"]


def test_malformed_row_names_file_and_line(tmp_path):
    path = write(tmp_path / "bad.tsv", "kb_id\tname\tkind\nA:1\tx\tprimary\nA:2 no tabs here\n")
    with pytest.raises(ArtifactError, match="line 3 has 1 column") as err:
        ReferenceSet.from_tsv(path)
    assert err.value.path == path and str(path) in str(err.value)


def test_gzipped_malformed_row_names_file_and_line(tmp_path):
    path = write(tmp_path / "bad.tsv.gz", "kb_id\tname\nA:1\tx\n\nA:2\n")
    with pytest.raises(ArtifactError, match="line 4") as err:
        ReferenceSet.from_tsv(path)
    assert str(path) in str(err.value)


def test_other_errors_name_the_file(tmp_path):
    with pytest.raises(ArtifactError, match="not found"):
        ReferenceSet.from_tsv(tmp_path / "missing.tsv")
    no_header = write(tmp_path / "no_header.tsv", "A:1\tx\tprimary\n")
    with pytest.raises(ArtifactError, match="expected the header"):
        ReferenceSet.from_tsv(no_header)
    empty = write(tmp_path / "empty.tsv", "kb_id\tname\tkind\n")
    with pytest.raises(ArtifactError, match="no names"):
        ReferenceSet.from_tsv(empty)
    not_gzip = tmp_path / "plain.tsv.gz"
    not_gzip.write_text(TSV, encoding="utf8")
    with pytest.raises(ArtifactError, match="cannot be read") as err:
        ReferenceSet.from_tsv(not_gzip)
    assert err.value.path == not_gzip
    latin1 = tmp_path / "latin1.tsv"
    latin1.write_bytes("kb_id\tname\nA:1\tcaf\u00e9\n".encode("latin-1"))
    with pytest.raises(ArtifactError, match="cannot be read"):
        ReferenceSet.from_tsv(latin1)
    truncated = tmp_path / "truncated.tsv.gz"
    truncated.write_bytes(gzip.compress(TSV.encode("utf8") * 50)[:-30])
    with pytest.raises(ArtifactError, match="cannot be read"):
        ReferenceSet.from_tsv(truncated)


def test_with_names_appends_rows_of_existing_entities():
    reference = ReferenceSet.from_rows([("E:1", "alpha", "name"), ("E:2", "beta", "name")])
    for base in (reference, ReferenceSet.from_arrays(reference.to_arrays())):  # names as a list, and as TextLines
        grown = base.with_names([1, 0], ["B-1", "a1"], ["discovered", "discovered"])
        assert list(grown.names) == ["alpha", "beta", "B-1", "a1"] and grown.name_entity.tolist() == [0, 1, 1, 0]
        assert grown.kinds[2:] == ["discovered"] * 2 and list(base.names) == ["alpha", "beta"]
        assert grown.names_of("E:2") == ["beta", "B-1"]
    with pytest.raises(ValueError, match="out of range"):
        reference.with_names([2], ["x"], [""])
    with pytest.raises(ValueError, match="line breaks"):
        reference.with_names([0], ["x\ny"], [""])
