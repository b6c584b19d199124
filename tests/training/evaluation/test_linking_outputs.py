"""`linking_outputs compare`: what differs between two runs of a pipeline on the same captions."""
import pytest

from training.evaluation.linking_outputs import compare_records


def record(caption: str, *ents):
    return {"pmc_id": "1", "caption_id": caption, "ents": [list(e) for e in ents]}


def test_identical_runs_and_each_kind_of_difference():
    a = [record("c1", (0, 4, "PROTEIN", "UniProt:P1", 0.9, 9606)), record("c2", (2, 5, "CHEMICAL", "", 0.1, None))]
    assert compare_records(a, a)["identical_ids"] and compare_records(a, a)["linked"] == 1
    relabelled = [record("c1", (0, 4, "GENE", "UniProt:P1", 0.9, 9606)), a[1]]
    relinked = [record("c1", (0, 4, "PROTEIN", "UniProt:P2", 0.9, 10090)), a[1]]
    moved = [record("c1", (0, 5, "PROTEIN", "UniProt:P1", 0.9, 9606)), a[1]]
    rescored = [record("c1", (0, 4, "PROTEIN", "UniProt:P1", 0.875, 9606)), a[1]]
    assert compare_records(a, relabelled)["labels_differ"] == 1
    assert (compare_records(a, relinked)["ids_differ"], compare_records(a, relinked)["taxa_differ"]) == (1, 1)
    assert compare_records(a, moved)["spans_differ"] == 1 and not compare_records(a, moved)["identical_ids"]
    report = compare_records(a, rescored)
    assert report["identical_ids"] and report["max_score_diff"] == pytest.approx(0.025)
    with pytest.raises(ValueError, match="other captions"):
        compare_records(a, a[:1])
