import json
from collections import Counter
from pathlib import Path

import pytest
import spacy
import typer
from spacy.tokens import DocBin

from training.common.bioid import Caption, Mention
from training.common.headline import read_headline
from training.ner.bio_tokenizer import customize_tokenizer
from training.ner.ner_corpus import caption_to_doc, parse_labels
from training.ner.ner_report import (
    bioid_gold,
    confusion,
    misaligned,
    ner_report,
    read_train_log,
    resolve_overlaps,
    span_scores,
)

LABELS = parse_labels("protein=PROTEIN,gene=GENE,chemical=CHEMICAL,organism=ORGANISM")


def _caption(text: str, mentions) -> Caption:
    return Caption("train", "A1", "A1 Figure_1", text, [
        Mention("train", "A1", "A1 Figure_1", str(i), s, e, text[s:e], t, (f"{t}:x",)) for i, (s, e, t) in enumerate(mentions)])


def test_resolve_overlaps_by_priority_then_length():
    spans = [(0, 7, "GENE"), (4, 7, "PROTEIN"), (10, 15, "OTHER"), (20, 30, "CHEMICAL"), (20, 25, "CHEMICAL")]
    assert resolve_overlaps(spans, ["PROTEIN", "GENE", "CHEMICAL"]) == [(4, 7, "PROTEIN"), (20, 30, "CHEMICAL")]


def test_span_scores_routes_ignore_the_label_inside_a_route():
    gold = {(0, 0, 3, "PROTEIN"), (0, 5, 8, "GENE"), (0, 10, 13, "CHEMICAL"), (1, 0, 4, "ORGANISM")}
    pred = {(0, 0, 3, "GENE"), (0, 5, 8, "GENE"), (0, 10, 14, "CHEMICAL")}
    s = span_scores(pred, gold)
    assert s["all"]["tp"] == 1 and s["all"]["pred"] == 3 and s["all"]["gold"] == 4
    assert s["uniprot"]["f"] == 1.0  # PROTEIN predicted as GENE still goes to UniProt
    assert s["PROTEIN"]["r"] == 0.0 and s["GENE"]["p"] == 0.5 and s["chebi"]["tp"] == 0
    assert s["ORGANISM"]["r"] == 0.0
    table = confusion(pred, gold)
    assert table["PROTEIN"]["GENE"] == 1 and table["GENE"]["GENE"] == 1 and table["CHEMICAL"]["missed"] == 1


def test_tokenizer_rules_align_caption_notations():
    nlp = customize_tokenizer(spacy.blank("en"))
    text = "npc1−/−mice, GFP+RFP+ puncta, LGG-1::GFP, aut2Δ cells, Drp1K38A, [Ca2+]c, siULK1 and LAMP‐2A."
    tokens = [t.text for t in nlp(text)]
    for word in ("npc1", "mice", "RFP", "LGG-1", "GFP", "aut2", "Drp1", "Ca2+", "ULK1", "LAMP", "2A"):
        assert word in tokens, word
    assert "siRNA" in [t.text for t in nlp("siRNA against Atg5")]
    words = [("npc1", "gene"), ("mice", "organism"), ("GFP", "protein"), ("RFP", "protein"), ("LGG-1", "protein"),
             ("aut2", "gene"), ("Drp1", "gene"), ("Ca2+", "chemical"), ("ULK1", "gene"), ("LAMP‐2A", "protein")]
    caption = _caption(text, [(text.index(w), text.index(w) + len(w), t) for w, t in words])
    assert [m.text for m in caption.mentions] == [w for w, _ in words]
    doc = caption_to_doc(nlp, caption, LABELS, "expand", Counter())
    assert misaligned(nlp, [doc], LABELS) == {"mentions": 10, "misaligned": 0}
    assert misaligned(spacy.blank("en"), [doc], LABELS)["misaligned"] >= 5
    # a pipeline that tags a name inside a blank-tokenizer token (as nseen_glued_names does) finds it exactly
    blank = spacy.blank("en")
    predicted = customize_tokenizer(spacy.blank("en"))(text)
    predicted.ents = [predicted.char_span(text.index("ULK1"), text.index("ULK1") + 4, label="GENE")]
    counts = misaligned(blank, [doc], LABELS, [predicted])
    assert blank.make_doc(text).char_span(text.index("ULK1"), text.index("ULK1") + 4) is None
    assert counts["misaligned_found"] == 1 and counts["misaligned"] >= 5


def test_ner_report_cli(tmp_path: Path):
    nlp = customize_tokenizer(spacy.blank("en"))
    captions = [_caption("LC3 binds ATP in mice.", [(0, 3, "protein"), (10, 13, "chemical"), (17, 21, "organism")]),
                _caption("p62 and Atg5 in yeast", [(0, 3, "protein"), (8, 12, "gene"), (16, 21, "organism")])]
    db = DocBin(store_user_data=True)
    for c in captions:
        db.add(caption_to_doc(nlp, c, LABELS, "expand", Counter()))
    db.to_disk(tmp_path / "dev.spacy")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "PROTEIN", "pattern": "LC3"}, {"label": "PROTEIN", "pattern": "Atg5"},
                        {"label": "CHEMICAL", "pattern": "ATP"}, {"label": "ORGANISM", "pattern": "mice"}])
    nlp.to_disk(tmp_path / "model")
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(json.dumps({"epoch": 0, "step": s, "losses": {"ner": 1.0}, "score": f / 100,
                                         "scores": {"ents_f": f, "ents_p": f, "ents_r": f}})
                             for s, f in ((0, 0.0), (100, 40.0), (200, 55.0))) + "\n")
    assert read_train_log(log)[-1] == {"step": 200, "epoch": 0, "score": 0.55, "ents_f": 0.55, "ents_p": 0.55,
                                       "ents_r": 0.55}
    out, headline = tmp_path / "results" / "ner", tmp_path / "results" / "headline.json"
    ner_report(tmp_path / "model", tmp_path / "dev.spacy", out, train=tmp_path / "dev.spacy", train_log=log,
               labels="protein=PROTEIN,gene=GENE,chemical=CHEMICAL,organism=ORGANISM", batch_size=8,
               headline=headline, documents="all")
    metrics = json.loads((out / "metrics.json").read_text())
    bioid = metrics["views"]["bioid"]
    assert bioid["all"]["tp"] == 3 and bioid["all"]["pred"] == 4 and bioid["all"]["gold"] == 6
    assert bioid["uniprot"]["tp"] == 2 and bioid["uniprot"]["gold"] == 3  # Atg5 (gold GENE) routed right
    assert metrics["confusion"]["GENE"]["PROTEIN"] == 1 and metrics["confusion"]["PROTEIN"]["missed"] == 1
    assert metrics["misaligned"]["dev"] == {"mentions": 6, "misaligned": 0, "misaligned_found": 0}
    assert metrics["misaligned"]["train"] == {"mentions": 6, "misaligned": 0}
    assert (out / "learning_curve.png").stat().st_size > 0 and "Command: `python -m training.ner.ner_report" in (
        out / "metrics.md").read_text()
    h = read_headline(headline)
    assert h["ner_f"]["value"] == bioid["all"]["f"] and h["ner_organism_recall"]["value"] == 0.5
    assert set(h) == {"ner_f", "ner_uniprot_routed_f", "ner_chemical_f", "ner_organism_recall"}
    assert bioid_gold(list(DocBin().from_disk(tmp_path / "dev.spacy").get_docs(nlp.vocab)), LABELS) >= {
        (1, 16, 21, "ORGANISM")}
    # the article A1 is odd-numbered: --documents keeps it or not; headline figures are for all articles only
    labels = "protein=PROTEIN,gene=GENE,chemical=CHEMICAL,organism=ORGANISM"
    for half, n_docs in (("odd", 2), ("even", 0)):
        ner_report(tmp_path / "model", tmp_path / "dev.spacy", tmp_path / half, train=None, train_log=None, labels=labels,
                   batch_size=8, headline=None, documents=half)
        metrics = json.loads((tmp_path / half / "metrics.json").read_text())
        assert metrics["dev_docs"] == n_docs and metrics["documents"] == half
    assert "odd-numbered articles" in (tmp_path / "odd" / "metrics.md").read_text()
    with pytest.raises(typer.BadParameter, match="--documents all"):
        ner_report(tmp_path / "model", tmp_path / "dev.spacy", tmp_path / "x", train=None, train_log=None, labels=labels,
                   batch_size=8, headline=headline, documents="odd")


def test_headline_summary_names_a_missing_label():
    from training.ner.ner_report import headline_summary

    text = headline_summary({"ner_f": 0.5, "ner_uniprot_routed_f": 0.6, "ner_chemical_f": 0.4})
    assert text == "NER F 0.500, routed to UniProt F 0.600, CHEMICAL F 0.400, ORGANISM recall n/a (no gold)"
