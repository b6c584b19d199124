from pathlib import Path

import pytest

from training.evaluation.baselines import (
    ExactMatchRanker,
    RapidfuzzRanker,
    Reference,
    TfidfRanker,
    collapse,
    normalize_alnum,
    normalize_light,
    read_reference,
)

FIX = Path(__file__).parents[2] / "fixtures" / "eval"


@pytest.fixture
def ref() -> Reference:
    return read_reference(FIX / "reference_uniprot.tsv")


def test_read_reference(ref, tmp_path):
    assert len(ref) == 6 and len(ref.entities) == 3
    with pytest.raises(FileNotFoundError, match="Reference set not found"):
        read_reference(tmp_path / "none.tsv")


def test_normalisation():
    assert normalize_light("  PLC\u2010Gamma\u2013 2 ") == "plc-gamma- 2"
    assert normalize_alnum("PLC-gamma 2") == "plcgamma2"


def test_collapse_distinct_entities():
    assert collapse([0, 1, 2, 3, 4], ["A", "A", "B", "A", "C"], 2) == ["A", "B"]
    assert collapse([0, 1], ["A", "A"], 5) == ["A"]


def test_exact_match(ref):
    r = ExactMatchRanker(ref)
    assert r.rank(["ak1", "AK\u20102", "Alpha kinase", "nothing"], 10) == [
        ["UniProt:P00001"], [], ["UniProt:P00001"], []]
    r2 = ExactMatchRanker(ref, alnum_fallback=True)
    assert r2.rank(["AK\u20102", "alpha-kinase 2"], 10) == [["UniProt:P00002"], ["UniProt:P00002"]]


@pytest.mark.parametrize("cls", [TfidfRanker, RapidfuzzRanker])
def test_similarity_rankers_distinct_best_first(ref, cls):
    ranked = cls(ref).rank(["alpha kinase 2", "beta protien"], 10)
    assert ranked[0][0] == "UniProt:P00002"
    assert ranked[1][0] == "UniProt:P00003"
    for row in ranked:
        assert len(row) == len(set(row)) <= 3
