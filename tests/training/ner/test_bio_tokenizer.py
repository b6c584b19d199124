"""The caption tokenizer rules: each splits where Bio-ID puts a mention boundary, and none merges tokens."""
from typing import List

import pytest
import spacy

from training.ner.bio_tokenizer import customize_tokenizer


@pytest.fixture(scope="module")
def nlp() -> spacy.Language:
    return customize_tokenizer(spacy.blank("en"))


def _tokens(nlp: spacy.Language, text: str) -> List[str]:
    return [t.text for t in nlp.make_doc(text)]


def test_unicode_hyphens_split(nlp: spacy.Language):
    assert _tokens(nlp, "anti‐LC3 (−glucose)") == ["anti", "‐", "LC3", "(", "−", "glucose", ")"]


@pytest.mark.parametrize("text, tokens", [
    ("LC3immunoblot", ["LC3", "immunoblot"]),
    ("GFPmice", ["GFP", "mice"]),
    ("IFT20immunoblot", ["IFT20", "immunoblot"]),
    ("nuclearLC3", ["nuclear", "LC3"]),
    ("antiLC3", ["anti", "LC3"]),
    ("Id1KO", ["Id1", "KO"]),
    ("CXCR5hi", ["CXCR5", "hi"]),
    ("pAKT", ["p", "AKT"]),
    ("hLC3B", ["h", "LC3B"]),
    ("mouseTrp53", ["mouse", "Trp53"]),
    ("H3K9me3", ["H3", "K9me3"]),
    ("H2BK120ub", ["H2B", "K120ub"]),
])
def test_glued_words_split_where_bioid_puts_a_boundary(nlp: spacy.Language, text: str, tokens: List[str]):
    assert _tokens(nlp, text) == tokens


@pytest.mark.parametrize("text, tokens", [
    ("RFP‐mAtg9", ["RFP", "‐", "m", "Atg9"]),
    ("Atg7fl/fl", ["Atg7", "fl", "/", "fl"]),
    ("SOD1G85R‐induced", ["SOD1", "G85R", "‐", "induced"]),
    ("HCT116XIAP", ["HCT116", "XIAP"]),
    ("Cx3cr1GFP/GFP", ["Cx3cr1", "GFP", "/", "GFP"]),
    ("Atg5MEFs", ["Atg5", "MEFs"]),
    ("mousefibroblasts", ["mouse", "fibroblasts"]),
    ("LC3II", ["LC3", "II"]),
    ("anti‐pS6RP", ["anti", "‐", "p", "S6RP"]),
    ("prApe1", ["pr", "Ape1"]),
    ("HsAtg4B", ["Hs", "Atg4B"]),
    ("LGR5hi", ["LGR5", "hi"]),
])
def test_glue_inside_a_token_splits(nlp: spacy.Language, text: str, tokens: List[str]):
    """Zero-width infixes split anywhere in a chunk, also in the pieces after a hyphen or a slash."""
    assert _tokens(nlp, text) == tokens


@pytest.mark.parametrize("word", ["C57BL", "53BP1", "125I", "eGFP", "cKO", "Chi3l1", "MEFs", "siRNAs", "TP53INP1",
                                  "MCF10A", "micelles", "ratio", "pH7", "pH5.5"])
def test_glue_rules_leave_names_and_plurals_whole(nlp: spacy.Language, word: str):
    """Bio-ID keeps a plural's s in its mention (MEFs: 556 of 559), and these names are one mention each."""
    assert _tokens(nlp, word) == [word]


@pytest.mark.parametrize("word", ["Actin", "Tubulin", "mRNA", "miR-21", "ratio", "rather", "humanized", "HeLa", "siRNA",
                                  "p53", "pH", "LC3B", "Trp53", "mCherry"])
def test_ordinary_words_and_names_stay_whole(nlp: spacy.Language, word: str):
    assert _tokens(nlp, word) == [word]


def test_rules_only_add_boundaries(nlp: spacy.Language):
    text = ("GFP‐LC3 puncta in HeLa cells; pAKT and LC3immunoblot of Atg7flox/flox mice (H3K9me3), RFP‐mAtg9 in "
            "HCT116XIAP‐KO and SOD1G85R‐induced mousefibroblasts.")
    plain = spacy.blank("en").make_doc(text)
    ours = nlp.make_doc(text)
    assert {t.idx for t in plain} <= {t.idx for t in ours}
    assert {t.idx + len(t) for t in plain} <= {t.idx + len(t) for t in ours}
    assert "".join(t.text_with_ws for t in ours) == text


def test_the_rules_are_saved_with_the_tokenizer(nlp: spacy.Language, tmp_path):
    nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    assert _tokens(loaded, "pAKT in nuclearLC3") == ["p", "AKT", "in", "nuclear", "LC3"]
