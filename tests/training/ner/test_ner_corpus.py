import json
from collections import Counter
from pathlib import Path

import pytest
import spacy
import typer
from spacy.tokens import DocBin

from training.common.bioid import Caption, Mention
from training.evaluation.evaluate_pipeline import link_scores, prf, read_gold
from training.ner.bio_tokenizer import customize_tokenizer
from training.ner.ner_corpus import caption_to_doc, ner_corpus, parse_labels, split_articles
from training.workflow.step_timer import record

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "eval"


def _mention(start: int, end: int, text: str, etype: str, ids: str) -> Mention:
    return Mention("train", "A1", "A1 Figure_1", "1", start, end, text, etype, tuple(ids.split("|")))


def test_split_articles_never_splits_an_article_and_is_deterministic():
    articles = [f"P{i:03d}" for i in range(20)]
    train, dev = split_articles(articles, 0.2, seed=0)
    assert len(dev) == 4 and not set(train) & set(dev) and sorted(train + dev) == articles
    assert split_articles(articles, 0.2, seed=0) == (train, dev)
    assert len(split_articles(articles[:3], 0.1, seed=0)[1]) == 1  # at least one dev article


def test_overlaps_resolved_by_priority_then_length():
    nlp = customize_tokenizer(spacy.blank("en"))
    text = "GFP‐LC3 protein binds ATP in HeLa cells"
    caption = Caption("train", "A1", "A1 Figure_1", text, [
        _mention(0, 7, "GFP‐LC3", "protein", "protein:GFP-LC3"),
        _mention(4, 7, "LC3", "gene", "NCBI gene:1"),
        _mention(22, 25, "ATP", "chemical", "CHEBI:15422"),
        _mention(29, 39, "HeLa cells", "cell", "CVCL:0030"),
        _mention(29, 33, "HeLa", "protein", "Uniprot:P00001"),
    ])
    counts: Counter = Counter()
    doc = caption_to_doc(nlp, caption, parse_labels("protein=PROTEIN,gene=GENE,chemical=CHEMICAL,cell=CELL"), "expand", counts)
    assert [(e.text, e.label_) for e in doc.ents] == [("GFP‐LC3", "PROTEIN"), ("ATP", "CHEMICAL"), ("HeLa", "PROTEIN")]
    assert doc.ents[1].kb_id_ == "CHEBI:15422" and doc.ents[2].kb_id_ == "UniProt:P00001"
    assert counts["dropped_overlap"] == 2
    # every linked mention is kept for the evaluation, overlapping ones included
    assert [link[:2] for link in doc.user_data["links"]] == [[22, 25], [29, 33]]
    # and every mention, for the Bio-ID scoring (NCBI Gene ids, un-normalized mentions)
    assert doc.user_data["gold_format"] == 2
    assert [m[:3] for m in doc.user_data["mentions"]] == [[0, 7, "protein"], [4, 7, "gene"], [22, 25, "chemical"],
                                                         [29, 39, "cell"], [29, 33, "protein"]]


@pytest.mark.parametrize("alignment,ents,iobs", [
    ("expand", [("TauAT", "GENE"), ("ATP", "CHEMICAL")], ["B", "O", "B"]),
    ("strict", [("ATP", "CHEMICAL")], ["O", "O", "B"]),
    ("missing", [("ATP", "CHEMICAL")], ["", "O", "B"]),
])
def test_misaligned_mention_by_alignment_mode(alignment: str, ents: list, iobs: list):
    """A mention inside a token (`Tau` of `TauAT`) is widened, dropped (outside) or left unannotated (missing)."""
    nlp = customize_tokenizer(spacy.blank("en"))
    caption = Caption("train", "A1", "A1 Figure_1", "TauAT and ATP", [
        _mention(0, 3, "Tau", "gene", "NCBI gene:4137"),
        _mention(10, 13, "ATP", "chemical", "CHEBI:15422"),
    ])
    counts: Counter = Counter()
    doc = caption_to_doc(nlp, caption, parse_labels("gene=GENE,chemical=CHEMICAL"), alignment, counts)
    assert [t.text for t in doc] == ["TauAT", "and", "ATP"]
    assert [(e.text, e.label_) for e in doc.ents] == ents
    assert [t.ent_iob_ for t in doc] == iobs
    assert counts["expanded"] == (alignment == "expand")
    assert counts["missing_misaligned"] == (alignment == "missing")
    assert counts["dropped_misaligned"] == (alignment == "strict")


def test_missing_alignment_keeps_an_overlapping_entity():
    """The tokens of a misaligned mention stay annotated when an aligned mention holds them."""
    nlp = customize_tokenizer(spacy.blank("en"))
    caption = Caption("train", "A1", "A1 Figure_1", "TauAT binds", [
        _mention(0, 5, "TauAT", "protein", "protein:TauAT"),
        _mention(0, 3, "Tau", "gene", "NCBI gene:4137"),
    ])
    counts: Counter = Counter()
    doc = caption_to_doc(nlp, caption, parse_labels("protein=PROTEIN,gene=GENE"), "missing", counts)
    assert [(e.text, e.label_) for e in doc.ents] == [("TauAT", "PROTEIN")]
    assert counts["dropped_misaligned"] == 1 and counts["missing_misaligned"] == 0


def test_ner_corpus_rejects_an_unknown_alignment(tmp_path: Path):
    with pytest.raises(typer.BadParameter, match="expand, strict, missing"):
        ner_corpus(FIXTURES / "captions.tsv", FIXTURES / "mentions.tsv", tmp_path, dev_fraction=0.5, seed=0,
                   labels="protein=PROTEIN", alignment="widen", lang="en", split=None)


def test_ner_corpus_cli_and_gold_links(tmp_path: Path):
    ner_corpus(FIXTURES / "captions.tsv", FIXTURES / "mentions.tsv", tmp_path, dev_fraction=0.5, seed=0,
               labels="protein=PROTEIN,chemical=CHEMICAL", alignment="expand", lang="en", split=None)
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert stats["train"]["articles"] + stats["dev"]["articles"] == 2
    nlp = spacy.blank("en")
    docs = [d for name in ("train", "dev") for d in DocBin().from_disk(tmp_path / f"{name}.spacy").get_docs(nlp.vocab)]
    assert {d.user_data["pmc_id"] for d in docs} == {"P001", "P002"}
    gold = read_gold(docs, {"CHEBI:2": "CHEBI:15377"})
    assert all(ids for ids in gold.values())
    assert any("CHEBI:15377" in ids for ids in gold.values())  # secondary id mapped


def test_link_scores_counts_spans_and_ids():
    gold = {(0, 0, 3, "uniprot"): frozenset({"UniProt:P1"}), (0, 5, 8, "chebi"): frozenset({"CHEBI:1", "CHEBI:2"})}
    in_kb = {k: True for k in gold}
    pred = {(0, 0, 3, "uniprot"): "UniProt:P1", (0, 5, 8, "chebi"): "CHEBI:2", (0, 9, 12, "uniprot"): "UniProt:P9"}
    scores = link_scores(pred, gold, in_kb)
    assert scores["all"]["tp"] == 2 and scores["all"]["p"] == round(2 / 3, 4) and scores["all"]["r"] == 1.0
    assert scores["chebi"] == {**prf(1, 1, 1), "r_in_kb": 1.0, "gold_in_kb": 1}


def test_step_timer_records_and_replaces(tmp_path: Path):
    path = tmp_path / "times.json"
    record(path, "a", ["x"], 1.5, 0, "t0")
    record(path, "b", ["y"], 2.0, 1, "t1")
    record(path, "a", ["x"], 3.0, 0, "t2")
    data = json.loads(path.read_text())
    assert data["a"]["seconds"] == 3.0 and data["b"]["ok"] is False and data["_total_seconds"] == 5.0
