from training.common.bioid_scoring import EquivalenceClasses
from training.evaluation.organism_table import NOT_IN_REFERENCE, per_organism, per_organism_markdown, span_organism
from training.evaluation.pipeline_outputs import SpanOutput

TAXA = {"UniProt:H1": 9606, "UniProt:F1": 7227, "UniProt:F2": 7227, "UniProt:W1": 6239}


def test_span_organism():
    assert span_organism(["UniProt:X", "UniProt:F1"], TAXA) == "7227"
    assert span_organism(["UniProt:X"], TAXA) == NOT_IN_REFERENCE


def test_rows_recall_and_other_organisms():
    gold = {(0, 0, 1): ["UniProt:H1"], (0, 2, 3): ["UniProt:F1"], (0, 4, 5): ["UniProt:F2"],
            (0, 6, 7): ["UniProt:W1"], (0, 8, 9): ["UniProt:X"]}
    linked = {(0, 0, 1): SpanOutput("PROTEIN", "UniProt:H1", 9606),
              (0, 2, 3): SpanOutput("PROTEIN", "UniProt:F1", 7227),
              (0, 4, 5): SpanOutput("PROTEIN", "UniProt:H1", 9606),
              (0, 6, 7): SpanOutput("PROTEIN", None, 6239)}
    table = per_organism(gold, linked, EquivalenceClasses(), TAXA, min_spans=2)
    rows = table["rows"]
    assert rows["7227"] == {"name": "fruit fly", "spans": 2, "right": 1, "recall": 0.5, "unlinked": 0,
                            "organism_accuracy": 0.5}
    # human and worm have one span each: summed into one row; the out-of-reference span keeps its own
    assert rows["smaller organisms (< 2 spans each)"]["spans"] == 2
    assert rows[NOT_IN_REFERENCE]["unlinked"] == 1
    # fly 1/2, worm 0/1, out of reference 0/1
    assert (table["other_organisms_right"], table["other_organisms_spans"]) == (1, 4)
    assert table["other_organisms_recall"] == 0.25
    text = "\n".join(per_organism_markdown(table))
    assert "| fruit fly | 7227 | 2 | 1 | 0.500 | 0 | 0.500 |" in text
