import gzip
import json
from pathlib import Path

import pytest

from training.common.bioid import BioIDFormatError
from training.common.bioid_scoring import (
    EquivalenceClasses,
    GoldMention,
    caption_scores,
    category_of,
    gold_by_span,
    span_scores,
    to_curie,
)

FIX = Path(__file__).parents[2] / "fixtures" / "eval"


@pytest.fixture
def equiv() -> EquivalenceClasses:
    return EquivalenceClasses([["Uniprot:P1", "NCBI gene:7"], ["CHEBI:2", "PubChem:5"], ["Uniprot:P2", "Uniprot:P3"]],
                              secondary={"CHEBI:9": "CHEBI:2"})


def test_curies_and_categories():
    assert to_curie("NCBI gene:7157") == "NCBIGene:7157" and to_curie("Uniprot:P04637") == "UniProt:P04637"
    assert to_curie("CHEBI:9", {"CHEBI:9": "CHEBI:2"}) == "CHEBI:2"
    assert [category_of(c) for c in ("UniProt:P1", "NCBIGene:7", "CHEBI:1", "PubChem:1", "GO:1")] == \
        ["protein_gene", "protein_gene", "chemical", "chemical", None]


def test_classes_merge_spellings_secondary_ids_and_shared_members(equiv: EquivalenceClasses):
    assert equiv.canon("UniProt:P1") == equiv.canon("NCBI gene:7") == equiv.canon("NCBIGene:7")
    assert equiv.canon("CHEBI:9") == equiv.canon("PubChem:5")  # secondary id mapped, then its class
    assert equiv.canon("UniProt:P9") == "UniProt:P9"
    merged = EquivalenceClasses([["A:1", "B:2"], ["B:2", "C:3"]])
    assert merged.canon("A:1") == merged.canon("C:3")
    assert equiv.related("NCBIGene:7") == ["NCBIGene:7", "UniProt:P1"]


def test_release_file_and_clear_errors(tmp_path: Path):
    classes = EquivalenceClasses.from_file(FIX / "equivalence_classes.json.gz")
    assert classes.n_classes == 3 and classes.canon("Uniprot:P00004") == classes.canon("NCBI gene:5")
    with pytest.raises(BioIDFormatError, match="not found"):
        EquivalenceClasses.from_file(tmp_path / "missing.json.gz")
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(gzip.compress(b"{\"a\": 1}"))
    with pytest.raises(BioIDFormatError, match="list of lists"):
        EquivalenceClasses.from_file(bad)
    truncated = tmp_path / "trunc.json.gz"
    truncated.write_bytes(gzip.compress(json.dumps([["a", "b"]]).encode())[:-6])
    with pytest.raises(BioIDFormatError, match="Could not read"):
        EquivalenceClasses.from_file(truncated)


def test_nil_mentions():
    assert GoldMention(0, 0, 4, "protein", ("protein:Flag",)).is_nil
    assert not GoldMention(0, 0, 4, "protein", ("protein:Flag", "Uniprot:P1")).is_nil


def test_span_and_caption_scores(equiv: EquivalenceClasses):
    mentions = [
        GoldMention(0, 0, 3, "gene", ("NCBI gene:7",)),          # right through the class UniProt:P1 ~ NCBI gene:7
        GoldMention(0, 5, 8, "protein", ("Uniprot:P2",)),        # right through the UniProt:P2 ~ P3 class
        GoldMention(0, 10, 14, "protein", ("protein:Flag",)),    # NIL: a link on it is wrong
        GoldMention(1, 0, 3, "chemical", ("CHEBI:9",)),          # secondary id; predicted as PubChem
        GoldMention(1, 5, 8, "protein", ("Uniprot:P4",)),        # missed
    ]
    gold = gold_by_span(mentions, equiv)
    assert len(gold["protein_gene"]) == 3 and len(gold["chemical"]) == 1
    pred = {(0, 0, 3): "UniProt:P1", (0, 5, 8): "UniProt:P3", (0, 10, 14): "UniProt:P8",
            (1, 0, 3): "PubChem:5", (1, 9, 12): "UniProt:P4"}   # right id, wrong span
    span = span_scores(pred, gold, equiv)
    assert (span["protein_gene"]["tp"], span["protein_gene"]["predicted"], span["protein_gene"]["gold"]) == (2, 4, 3)
    assert (span["chemical"]["tp"], span["chemical"]["predicted"], span["chemical"]["gold"]) == (1, 1, 1)
    assert span["all"]["p"] == round(3 / 5, 4) and span["all"]["r"] == round(3 / 4, 4)
    caption = caption_scores(pred, gold, equiv)
    # caption 0: {P1, P2~P3, P8} vs {P1, P2}; caption 1: {P4} + {PubChem:5} vs {P4} + {CHEBI:2}
    assert (caption["protein_gene"]["tp"], caption["protein_gene"]["predicted"], caption["protein_gene"]["gold"]) == (3, 4, 3)
    assert caption["chemical"]["tp"] == 1 and caption["all"]["r"] == 1.0
    without = EquivalenceClasses()
    assert span_scores(pred, gold_by_span(mentions, without), without)["all"]["tp"] == 0
