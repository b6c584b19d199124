import gzip
from pathlib import Path

import pytest

from training.evaluation.organism_eval import (
    OTHER,
    TaxaFileError,
    confusion_markdown,
    gold_taxa,
    organism_confusion,
    read_taxa,
)


def test_read_taxa_with_or_without_header(tmp_path: Path):
    plain = tmp_path / "taxa.tsv"
    plain.write_text("kb_id\ttaxon_id\nUniProt:P04637\t9606\nUniProt:P02340\t10090\n")
    assert read_taxa(plain) == {"UniProt:P04637": 9606, "UniProt:P02340": 10090}
    packed = tmp_path / "taxa.tsv.gz"
    packed.write_bytes(gzip.compress(b"UniProt:P04637\t9606\n"))
    assert read_taxa(packed) == {"UniProt:P04637": 9606}


def test_read_taxa_errors(tmp_path: Path):
    with pytest.raises(TaxaFileError, match="not found"):
        read_taxa(tmp_path / "none.tsv")
    bad = tmp_path / "bad.tsv"
    bad.write_text("UniProt:P1\t9606\nUniProt:P2\tmouse\n")
    with pytest.raises(TaxaFileError, match="line 2"):
        read_taxa(bad)


def test_confusion_table_and_accuracy():
    taxa = {"UniProt:H": 9606, "UniProt:M": 10090, "UniProt:F": 7227}
    pairs = [
        (gold_taxa(["UniProt:H"], taxa), 9606),              # right
        (gold_taxa(["UniProt:M"], taxa), 9606),              # mouse called human
        (gold_taxa(["UniProt:M", "UniProt:H"], taxa), 9606),  # orthologs: right for either
        (gold_taxa(["UniProt:F"], taxa), None),              # fly (other), no taxon written
        (gold_taxa(["UniProt:X"], taxa), 10090),             # gold taxon unknown
    ]
    c = organism_confusion(pairs)
    assert c["table"]["10090"]["9606"] == 2 and c["table"]["9606"]["9606"] == 1
    assert c["table"][OTHER][OTHER] == 1 and c["table"][OTHER]["10090"] == 1
    assert c["spans"] == 5 and c["spans_gold_known"] == 4 and c["spans_gold_covered"] == 3
    assert c["accuracy"] == 0.5 and c["accuracy_covered"] == round(2 / 3, 4)
    lines = confusion_markdown(c)
    assert len(lines) == 2 + 6 and lines[3].startswith("| mouse (10090) | 2 |")
