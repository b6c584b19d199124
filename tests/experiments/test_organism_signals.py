"""The organism-signal experiment: name membership, the weakly supervised caption classifier, host words."""
import gzip
from pathlib import Path

import pytest

from experiments.organism_signals import (
    CaptionClassifier,
    accuracy,
    decide,
    name_evidence,
    name_key,
    only_taxon,
    other_half,
    read_name_taxa,
    weak_label,
)
from spacy_nseen.organisms.assign import AssignerSettings, OrganismAssigner, SpanOrganism
from training.common.bioid import BioIDFormatError
from training.evaluation.evaluate_organisms import AssignedMention

HUMAN, MOUSE, YEAST = 9606, 10090, 559292
ORDER = [HUMAN, MOUSE, 10116, YEAST, 83333]


def mention(pmc_id: str, caption: str, text: str, gold: int, scores: dict) -> AssignedMention:
    best = decide(scores, ORDER)
    return AssignedMention(pmc_id, f"{pmc_id} {caption}", text, (gold,), SpanOrganism(best, [], scores=scores))


def write_reference(path: Path, rows: list) -> Path:
    with gzip.open(path, "wt", encoding="utf8") as f:
        f.write("kb_id\tname\tkind\ttaxon\n")
        for row in rows:
            f.write("\t".join(map(str, row)) + "\n")
    return path


def test_names_meet_across_case_and_dashes() -> None:
    assert name_key("Spo-20") == name_key("SPO20") == name_key("spo 20") == "spo20"
    assert name_key("Siglec\u20105") == "siglec5"


def test_reference_names_give_the_covered_organisms_of_each_name(tmp_path: Path) -> None:
    path = write_reference(tmp_path / "ref.tsv.gz", [
        ("UniProt:P1", "SPO20", "gene_primary", YEAST), ("UniProt:P2", "CDC42", "gene_primary", HUMAN),
        ("UniProt:P3", "Cdc42", "gene_primary", MOUSE), ("UniProt:P4", "Cdc42", "gene_primary", YEAST),
        ("UniProt:P5", "Atg8a", "gene_primary", 7227)])  # not a covered organism: left out
    taxa = read_name_taxa(path)
    assert only_taxon("Spo20", taxa) == YEAST
    assert only_taxon("Cdc42", taxa) is None          # three organisms
    assert only_taxon("Atg8a", taxa) is None          # none covered
    assert taxa[name_key("cdc42")] == frozenset({HUMAN, MOUSE, YEAST})


def test_a_missing_or_foreign_reference_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(BioIDFormatError, match="not found"):
        read_name_taxa(tmp_path / "missing.tsv.gz")
    bad = tmp_path / "bad.tsv.gz"
    with gzip.open(bad, "wt", encoding="utf8") as f:
        f.write("accession\tlabel\nP1\tx\n")
    with pytest.raises(BioIDFormatError, match="name and taxon"):
        read_name_taxa(bad)


def test_name_evidence_adds_the_own_name_and_the_articles_other_names() -> None:
    taxa = {"spo20": frozenset({YEAST}), "clb2": frozenset({YEAST}), "cdc14": frozenset({HUMAN, YEAST})}
    mentions = [mention("1", "Figure_1-A", "Spo20", YEAST, {MOUSE: 0.5}),
                mention("1", "Figure_1-B", "Clb2", YEAST, {MOUSE: 0.5}),
                mention("1", "Figure_1-B", "Cdc14", YEAST, {MOUSE: 0.5}),
                mention("2", "Figure_1-A", "Cdc14", HUMAN, {HUMAN: 0.3})]
    extra = name_evidence(mentions, taxa, name_weight=0.25, article_name_weight=1.0)
    assert extra[0] == {YEAST: 1.25}                 # own name 0.25 + Clb2 in the article 1.0
    assert extra[2] == {YEAST: 1.0}                  # Cdc14 is not one organism's: the article's two names
    assert extra[3] == {}                            # article 2 has no name of one organism
    assert accuracy(mentions, [{}] * 4, ORDER) == 0.25
    assert accuracy(mentions, extra, ORDER) == 1.0


def test_decide_breaks_ties_by_the_prior_order() -> None:
    assert decide({MOUSE: 1.0, HUMAN: 1.0}, ORDER) == HUMAN
    assert decide({}, ORDER) is None


def test_weak_labels_need_one_dominant_organism() -> None:
    labels = (HUMAN, MOUSE, 10116, YEAST)
    assert weak_label({MOUSE: 2.0}, labels) == MOUSE
    assert weak_label({MOUSE: 2.0, HUMAN: 1.0}, labels) == MOUSE
    assert weak_label({MOUSE: 1.0, HUMAN: 1.0}, labels) is None
    assert weak_label({83333: 1.0}, labels) is None  # not a label


def test_the_classifier_learns_from_masked_organism_words() -> None:
    assigner = OrganismAssigner(AssignerSettings())
    texts = ([f"Hippocampus of knockout mice, section {i}." for i in range(6)]
             + [f"HeLa-like human cells transfected with siRNA, blot {i}." for i in range(6)])
    classifier = CaptionClassifier(assigner)
    counts = classifier.fit(texts)
    assert counts == {MOUSE: 6, HUMAN: 6}
    p = classifier.centred_probabilities("Sections of the hippocampus.")
    assert p[MOUSE] > 0 > p[HUMAN]
    assert abs(sum(p.values())) < 1e-9
    with pytest.raises(ValueError, match="fewer than two organisms"):
        CaptionClassifier(assigner).fit(["Brain of mice."] * 3)


def test_the_classifier_trains_on_the_other_half() -> None:
    assert other_half("even") == "odd" and other_half("odd") == "even"
    with pytest.raises(ValueError, match="even or odd"):
        other_half("all")
