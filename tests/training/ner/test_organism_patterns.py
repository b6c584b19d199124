"""The ORGANISM ruler's binomial-name patterns: what they tag in captions, and the committed file and config."""
import json
from pathlib import Path
from typing import List, Tuple

import pytest
import spacy
from thinc.api import Config

from training.ner.bio_tokenizer import customize_tokenizer
from training.ner.organism_patterns import organism_patterns, refused_epithets, write_patterns

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def nlp() -> spacy.Language:
    nlp = customize_tokenizer(spacy.blank("en"))
    nlp.add_pipe("entity_ruler", name="organism_ruler", config={"overwrite_ents": False, "validate": True})
    nlp.get_pipe("organism_ruler").add_patterns(organism_patterns())
    return nlp


def _organisms(nlp: spacy.Language, text: str) -> List[Tuple[str, str]]:
    return [(e.text, e.label_) for e in nlp(text).ents]


@pytest.mark.parametrize("text, found", [
    ("Mice infected with T. gondii (RH) for 24 h", ["T. gondii"]),
    ("H. influenzae and A. fumigatus conidia", ["H. influenzae", "A. fumigatus"]),
    ("lysates of E.coli expressing GST-p62", ["E.coli"]),
    ("(C) S. cerevisiae cells. (D) mouse embryos", ["S. cerevisiae"]),
])
def test_abbreviated_binomials_are_tagged(nlp: spacy.Language, text: str, found: List[str]):
    assert _organisms(nlp, text) == [(t, "ORGANISM") for t in found]


@pytest.mark.parametrize("text", [
    "as shown in panel B. with the mean of three experiments",
    "E. left, control; right, LC3 knockdown",
    "D. mouse embryonic fibroblasts",
    "Fig. 2 and Ref. gondii",          # the genus letter must be a single capital
    "t. gondii",                       # and a capital
    "A. Lc3 puncta",                   # the epithet is lower case
    "E. col",                          # and at least four letters
])
def test_panel_letters_and_other_shapes_are_not_tagged(nlp: spacy.Language, text: str):
    assert _organisms(nlp, text) == []


def test_the_ruler_keeps_the_ner_spans(nlp: spacy.Language):
    doc = nlp.make_doc("T. gondii tachyzoites")
    doc.ents = [doc.char_span(0, len(doc.text), label="CELL")]
    assert [(e.text, e.label_) for e in nlp.get_pipe("organism_ruler")(doc).ents] == [("T. gondii tachyzoites", "CELL")]


def test_refused_epithets_hold_stop_and_caption_words():
    refused = refused_epithets()
    assert refused == sorted(refused)
    assert {"with", "left", "mouse", "whole"} <= set(refused)
    assert all(len(w) >= 4 for w in refused)


def test_the_committed_patterns_file_is_the_generated_one(tmp_path: Path):
    committed = ROOT / "configs" / "organism_patterns.json"
    write_patterns(tmp_path / "patterns.json")
    assert committed.read_text(encoding="utf8") == (tmp_path / "patterns.json").read_text(encoding="utf8")
    assert [p["label"] for p in json.loads(committed.read_text(encoding="utf8"))] == ["ORGANISM"] * 2


def test_the_ner_config_runs_the_ruler_after_the_ner_and_reads_the_committed_file():
    config = Config().from_disk(ROOT / "configs" / "ner.cfg", interpolate=False)
    pipeline = config["nlp"]["pipeline"]
    assert pipeline.index("organism_ruler") == pipeline.index("ner") + 1 and pipeline.index("tok2vec") < pipeline.index("ner")
    assert config["components"]["organism_ruler"]["factory"] == "entity_ruler"
    assert config["components"]["organism_ruler"]["overwrite_ents"] is False
    assert config["initialize"]["components"]["organism_ruler"]["patterns"]["path"] == "configs/organism_patterns.json"
    pipeline = Config().from_disk(ROOT / "configs" / "pipeline.cfg", interpolate=False)
    assert pipeline["nlp"]["pipeline"].index("organism_ruler") == pipeline["nlp"]["pipeline"].index("ner") + 1
