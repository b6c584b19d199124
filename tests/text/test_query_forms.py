import pytest

from spacy_nseen.linker.kb_linker import LinkerSettings
from spacy_nseen.text.query_forms import QUERY_FORMS, query_form, query_forms


@pytest.mark.parametrize(
    "text,form,expected",
    [
        ("PKCδ", "as_written", "PKCδ"),
        ("Siglec\u20105", "ascii_dashes", "Siglec-5"),
        ("IFN\u2010γ", "ascii_dashes", "IFN-γ"),
        ("PKCδ", "spelled_greek", "PKC-delta"),
        ("IFN\u2010γ", "spelled_greek", "IFN-gamma"),
        ("PLCγ2", "spelled_greek", "PLC-gamma-2"),
        ("PKCδ", "spelled_greek_joined", "PKCdelta"),
        ("ＡＢＣ", "ascii_dashes", "ABC"),  # NFKC
    ],
)
def test_query_form(text, form, expected):
    assert query_form(text, form) == expected


def test_query_forms_and_errors():
    assert query_forms(["Aβ", "p62"], "spelled_greek") == ["A-beta", "p62"]
    with pytest.raises(ValueError, match="query_form"):
        query_form("x", "lower")
    with pytest.raises(ValueError, match="query_form"):
        LinkerSettings(query_form="lower")
    assert set(QUERY_FORMS) >= {"as_written", "spelled_greek"}


def test_linker_uses_the_query_form_for_search_not_for_exact_match(toy_linker):
    from dataclasses import replace

    spelled = toy_linker.with_settings(replace(toy_linker.settings, query_form="spelled_greek"))
    # the exact match still sees the mention as written (its loose key spells Greek out itself)
    [candidates] = spelled.link(["PLCγ2"], top_k=2)
    assert candidates[0].kb_id == "UniProt:P16885" and candidates[0].score == 1.0
    # a mention without an exact match is searched in its spelled-out form: same result as typing it
    [greek] = spelled.link(["PLCγ9"], top_k=3)
    [typed] = toy_linker.link(["PLC-gamma-9"], top_k=3)
    assert greek == typed
