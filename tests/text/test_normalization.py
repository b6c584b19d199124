import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_nseen.text.normalization import DASHES, folded_text, loose_key, strict_key


@pytest.mark.parametrize("dash", list(DASHES))
def test_every_dash_becomes_hyphen_minus(dash):
    assert strict_key(f"IL{dash}2") == "il-2"


def test_strict_key():
    assert strict_key("  FOX   P2\t") == "fox p2"
    assert strict_key("PLC\u2010gamma\u20132") == "plc-gamma-2"
    assert strict_key("ＦＯＸＰ２") == "foxp2"  # NFKC folds full-width forms
    assert strict_key("Straße") == "strasse"
    assert strict_key("PLCγ2") == "plcγ2"  # the strict key keeps Greek letters
    assert strict_key("FOX-P2") != strict_key("FOXP2")
    assert strict_key("") == ""


@pytest.mark.parametrize(
    "name", ["PLCγ2", "PLC-gamma-2", "plc gamma 2", "PLC\u2013γ\u20132", "PLC_gamma_2", "PLCΓ2", "PLCgamma2"]
)
def test_loose_key_unifies_greek_and_punctuation(name):
    assert loose_key(name) == "plcgamma2"


def test_loose_key():
    assert loose_key("IKKε") == loose_key("IKK-epsilon") == "ikkepsilon"
    assert loose_key("FOX-P2") == loose_key("FOX P2") == loose_key("foxp2") == "foxp2"
    assert loose_key("TNF-α") == "tnfalpha"
    assert loose_key("---") == "" and loose_key("") == ""
    assert loose_key("FOXP2") != loose_key("FOXP3")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_gives_keys(text):
    strict, loose = strict_key(text), loose_key(text)
    assert isinstance(strict, str) and isinstance(loose, str)
    assert not any(char.isspace() for char in loose)
    assert "  " not in strict and strict == strict.strip()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=16) | st.text(alphabet=" \t-aZ\u2010", max_size=8))
def test_the_ascii_fast_path_gives_the_general_key(text):
    import re
    import unicodedata

    from spacy_nseen.text.normalization import _DASH_TABLE

    general = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).translate(_DASH_TABLE)).strip().casefold()
    assert strict_key(text) == general


def test_folded_text_folds_case_greek_and_dashes_but_keeps_punctuation():
    assert folded_text("Drp1") == folded_text("DRP1") == "drp1"
    assert folded_text("TGFβ") == folded_text("TGF-beta") == "tgf-beta"
    assert folded_text("β\u2010catenin") == folded_text("Beta-catenin") == "beta-catenin"
    assert folded_text("PLCγ2") == folded_text("PLC-gamma-2") == "plc-gamma-2"
    assert folded_text("PKCΔ") == "pkc-delta"  # upper-case Greek is folded first
    assert folded_text("IL-2 Rα") == "il-2 r-alpha"
    assert folded_text("FOX P2") != folded_text("FOXP2")  # spaces and punctuation stay for the encoder
    assert folded_text("") == ""


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_folded_text_is_stable(text):
    folded = folded_text(text)
    assert folded == folded_text(folded)
    assert folded == folded.casefold() or not folded.isascii()
