from hypothesis import example, given
from hypothesis import strategies as st

from spacy_nseen.text.short_forms import (
    embedded_symbol,
    family_stem,
    is_symbol_like,
    reference_short_forms,
    short_forms,
)


def test_symbol_like_tokens():
    assert is_symbol_like("LC3") and is_symbol_like("PPAPDC1A") and is_symbol_like("Cep57R")
    assert not is_symbol_like("130B")  # one letter
    assert not is_symbol_like("protein") and not is_symbol_like("kinase-2")  # no upper-case letter


def test_embedded_symbol():
    assert embedded_symbol("Autophagy-related protein LC3 A") == "LC3 A"
    assert embedded_symbol("MAP1A/MAP1B LC3 B") == "LC3 B"
    assert embedded_symbol("Phosphatidate phosphatase PPAPDC1A") == "PPAPDC1A"
    assert embedded_symbol("MAP1LC3A") is None  # one token: already a symbol
    assert embedded_symbol("Tumor necrosis factor") is None
    assert embedded_symbol("Beta-defensin 130B") is None


def test_family_stem():
    assert family_stem("ATG9A") == "ATG9"
    assert family_stem("LC3 B") == "LC3"
    assert family_stem("GSK3-B") == "GSK3"
    assert family_stem("Late cornified envelope protein 2B") == "Late cornified envelope protein 2"
    assert family_stem("TP53") is None  # no paralog letter
    assert family_stem("Lc3b") is None  # the letter is not upper-case
    assert family_stem("2B") is None and family_stem("130B") is None  # too few letters


def test_short_forms_of_a_descriptive_name():
    assert short_forms("Autophagy-related protein LC3 A") == [
        ("LC3 A", "symbol"),
        ("Autophagy-related protein LC3", "stem"),
        ("LC3", "stem"),
    ]
    assert short_forms("TP53") == []


def test_reference_short_forms_leave_out_names_of_the_reference():
    names = ["ACVR1B", "ACVR1", "ATG9A", "ATG9B", "GSK3B", "Gsk3"]
    entities = [0, 1, 2, 3, 4, 4]
    forms = reference_short_forms(names, entities)
    assert (2, "ATG9", "stem") in forms and (3, "ATG9", "stem") in forms
    assert all(form != "ACVR1" for _, form, _ in forms)  # a protein of its own
    assert all(form.casefold() != "gsk3" for _, form, _ in forms)  # already a name of the same entity


def test_reference_short_forms_drop_vague_stems():
    names = [f"RAB5{letter}" for letter in "ABCDEFG"]
    assert reference_short_forms(names, range(7), max_stem_entities=6) == []
    assert len(reference_short_forms(names, range(7), max_stem_entities=7)) == 7


@given(st.text(max_size=40))
@example("0 0AA\rA")  # a symbol and its letter split by other whitespace than one space: the form as written
def test_short_forms_are_distinct_and_never_the_name(name):
    forms = [form for form, _ in short_forms(name)]
    assert len(forms) == len(set(forms)) and name not in forms
    assert all(form and form in name for form in forms)
