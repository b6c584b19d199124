"""nseen_glued_names: a PROTEIN/GENE entity on a token gluing a listed name to a learned affix becomes the name."""
import json
from pathlib import Path
from typing import List, Tuple

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span

from spacy_nseen.errors import ArtifactError, FileProblemError
from spacy_nseen.ner.glued_names import SETTINGS_FILE, AffixRule, cut_tokens
from spacy_nseen.ner.name_features import EXTENSION

RULES = [
    {"prefix": "h", "suffix": "", "precision": 0.9, "right": 40},
    {"prefix": "", "suffix": "F", "precision": 0.8, "right": 16},
    {"prefix": "", "suffix": "IR", "precision": 1.0, "right": 53},
    {"prefix": "", "suffix": "AT", "precision": 0.7, "right": 5},
    {"prefix": "", "suffix": "T", "precision": 0.95, "right": 5},
]


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf8")
    return str(path)


@pytest.fixture()
def nlp(tmp_path: Path) -> Language:
    nlp = spacy.blank("en")
    features = nlp.add_pipe("nseen_name_features", name="name_features", config={"labels": ["PROTEIN"]})
    features.initialize(lambda: [], nlp=nlp, names_paths={
        "PROTEIN": write(tmp_path / "p.txt", "Tau\nhTERT\nAtg5\nNpc2\nTa\nPD\n")})
    glued = nlp.add_pipe("nseen_glued_names", name="glued_names")
    glued.initialize(lambda: [], nlp=nlp, rules_path=write(tmp_path / "rules.json", json.dumps({"rules": RULES})))
    return nlp


def tagged(nlp: Language, text: str, ents: List[Tuple[str, str]]) -> Doc:
    """Run the pipeline with `ents` (token text, label) set as an NER would, before nseen_glued_names."""
    doc = nlp.get_pipe("name_features")(nlp.make_doc(text))
    spans = []
    for word, label in ents:
        start = text.index(word)
        spans.append(doc.char_span(start, start + len(word), label=label, kb_id="K" if label == "GENE" else ""))
    doc.ents = spans
    return nlp.get_pipe("glued_names")(doc)


def ents(doc: Doc) -> List[Tuple[str, str]]:
    return [(e.text, e.label_) for e in doc.ents]


def test_a_glued_prefix_is_split_off_and_the_entity_is_the_name(nlp: Language) -> None:
    doc = tagged(nlp, "Western blot of hTau in cells", [("hTau", "PROTEIN")])
    assert ents(doc) == [("Tau", "PROTEIN")]
    assert [t.text for t in doc] == ["Western", "blot", "of", "h", "Tau", "in", "cells"]
    assert doc.text == "Western blot of hTau in cells"
    assert not doc[3].whitespace_ and doc[4].whitespace_


def test_each_cut_is_recorded_with_the_token_it_was_cut_from(nlp: Language) -> None:
    doc = tagged(nlp, "hTau and Atg5F and Tau", [("hTau", "PROTEIN"), ("Atg5F", "GENE")])
    assert cut_tokens(doc) == {(1, 4): "hTau", (9, 13): "Atg5F"}
    assert doc._.nseen_cut_tokens == [[1, 4, "hTau"], [9, 13, "Atg5F"]]  # lists: the doc serializes as before
    copy = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert cut_tokens(copy) == cut_tokens(doc)
    assert cut_tokens(nlp.make_doc("nothing cut")) == {}


def test_suffix_rules_labels_and_kb_ids_are_kept(nlp: Language) -> None:
    doc = tagged(nlp, "Atg5F mice and Npc2IR cells", [("Atg5F", "GENE"), ("Npc2IR", "PROTEIN")])
    assert ents(doc) == [("Atg5", "GENE"), ("Npc2", "PROTEIN")]
    assert doc.ents[0].kb_id_ == "K"


def test_the_most_precise_rule_wins_then_the_longest_name(nlp: Language) -> None:
    # `TauAT` fits `` + Tau + AT (0.7) and `` + TauA + T (0.95, but TauA is not listed) and `` + Ta + uAT (no rule)
    assert nlp.get_pipe("glued_names").trim("TauAT") == (0, 3)
    assert nlp.get_pipe("glued_names").trim("TaT") == (0, 2)  # `T` (0.95) over nothing else


def test_listed_tokens_unlisted_cores_and_other_entities_are_left_alone(nlp: Language) -> None:
    doc = tagged(nlp, "hTERT and hFoo and hTau cells and Tau F", [("hTERT", "PROTEIN"), ("hFoo", "PROTEIN"),
                                                                   ("hTau", "CELL"), ("Tau F", "PROTEIN")])
    assert ents(doc) == [("hTERT", "PROTEIN"), ("hFoo", "PROTEIN"), ("hTau", "CELL"), ("Tau F", "PROTEIN")]
    assert len(doc) == 9


def test_the_name_features_get_one_row_per_token_again(nlp: Language) -> None:
    doc = tagged(nlp, "hTau and Npc2IR", [("hTau", "PROTEIN"), ("Npc2IR", "GENE")])
    assert len(doc._.get(EXTENSION)) == len(doc) == 5  # h Tau and Npc2 IR


def test_saved_and_loaded_with_the_pipeline(nlp: Language, tmp_path: Path) -> None:
    nlp.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    doc = tagged(loaded, "hTau", [("hTau", "PROTEIN")])
    assert ents(doc) == [("Tau", "PROTEIN")]
    copy = spacy.blank("en").add_pipe("nseen_glued_names").from_bytes(nlp.get_pipe("glued_names").to_bytes())
    assert [r.to_dict() for r in copy.rules] == [r.to_dict() for r in nlp.get_pipe("glued_names").rules]


def test_damaged_files_raise_an_error_naming_them(nlp: Language, tmp_path: Path) -> None:
    glued = nlp.get_pipe("glued_names")
    glued.to_disk(tmp_path / "g")
    path = tmp_path / "g" / SETTINGS_FILE
    settings = json.loads(path.read_text(encoding="utf8"))
    path.write_text(json.dumps({**settings, "rules": settings["rules"][:2]}), encoding="utf8")
    with pytest.raises(ArtifactError, match="truncated"):
        glued.from_disk(tmp_path / "g")
    path.write_text(json.dumps({**settings, "format_version": 0}), encoding="utf8")
    with pytest.raises(ArtifactError, match="format_version"):
        glued.from_disk(tmp_path / "g")
    path.write_text("{", encoding="utf8")
    with pytest.raises(ArtifactError, match=SETTINGS_FILE):
        glued.from_disk(tmp_path / "g")
    path.unlink()
    with pytest.raises(ArtifactError, match="missing"):
        glued.from_disk(tmp_path / "g")
    with pytest.raises(ArtifactError, match="serialized"):
        glued.from_bytes(b"\xff")


def test_missing_rules_file_and_missing_name_list_are_clear_errors(tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    glued = nlp.add_pipe("nseen_glued_names")
    with pytest.raises(FileProblemError, match="rules file does not exist"):
        glued.initialize(lambda: [], nlp=nlp, rules_path=str(tmp_path / "none.json"))
    with pytest.raises(ValueError, match="no component 'name_features'"):
        glued.initialize(lambda: [], nlp=nlp, rules_path=write(tmp_path / "r.json", json.dumps({"rules": RULES})))


def test_without_rules_it_changes_nothing() -> None:
    nlp = spacy.blank("en")
    glued = nlp.add_pipe("nseen_glued_names")
    glued.initialize(lambda: [], nlp=nlp, rules_path=None)
    doc = nlp.make_doc("hTau")
    doc.ents = [Span(doc, 0, 1, label="PROTEIN")]
    assert glued(doc).ents[0].text == "hTau"


def test_a_rule_needs_an_affix_and_two_characters_between() -> None:
    with pytest.raises(ValueError):
        AffixRule("", "", 1.0, 1)
    assert AffixRule("h", "", 1.0, 1).core("hT") is None
    assert AffixRule("h", "+", 1.0, 1).core("hTa+") == (1, 3)


def test_fitting_rules_are_those_a_full_scan_finds(nlp: Language) -> None:
    glued = nlp.get_pipe("glued_names")
    glued.rules = [AffixRule(p, s, 0.5, 3) for p in ("", "h", "Hs", "γ", "3X") for s in ("", "F", "+", "IR", "-129Met")
                   if p or s]
    for text in ("hTau", "HsAtg4B", "Atg5F", "γH2AX+", "3XFLAG", "hTauIR", "MICA-129Met", "Tau", "hF", "hTa+", ""):
        expected = {(r.prefix, r.suffix) for r in glued.rules if r.core(text) is not None}
        assert {(r.prefix, r.suffix) for r, _ in glued.fitting(text)} == expected, text
        assert all(core == rule.core(text) for rule, core in glued.fitting(text))
