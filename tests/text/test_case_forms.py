"""A lower-case word against a symbol written in capitals (`spacy_nseen.text.case_forms`)."""

import pytest

from spacy_nseen.text.case_forms import case_mismatch, is_lowercase_word, written_as_word


@pytest.mark.parametrize(
    "text,expected",
    [("simple", True), ("yki", True), (" his ", True), ("p53", False), ("c-myc", False), ("Akt", False), ("a", False),
     ("", False), ("ζeta", True), ("SIMPLE", False)],
)
def test_a_lowercase_word_is_letters_only_in_lower_case(text, expected):
    assert is_lowercase_word(text) is expected


@pytest.mark.parametrize("name,expected", [("insulin", True), ("Insulin", True), ("yki", True), ("SIMPLE", False),
                                           ("YAP1", False), ("TH", False), ("HuB", False), ("Cathepsin H", False)])
def test_a_name_written_as_a_word_has_at_most_one_capital(name, expected):
    assert written_as_word(name) is expected


def test_a_lowercase_word_matching_only_aliases_in_capitals_is_a_mismatch():
    assert case_mismatch("simple", [("SIMPLE", "gene_synonym")])
    assert case_mismatch("sqstm", [("SQSTM", "entry_mnemonic"), ("SQSTM", "entry_mnemonic")])


def test_a_name_written_as_a_word_or_a_primary_symbol_among_the_matches_is_no_mismatch():
    assert not case_mismatch("insulin", [("INS", "gene_synonym"), ("Insulin", "recommended")])
    assert not case_mismatch("yki", [("yki", "gene_primary")])
    assert not case_mismatch("src", [("SRC", "gene_primary")])  # oncogenes are written so


def test_no_mismatch_without_matches_or_for_a_mention_that_is_no_lowercase_word():
    assert not case_mismatch("simple", [])
    assert not case_mismatch("Simple", [("SIMPLE", "gene_synonym")])
    assert not case_mismatch("p62", [("P62", "gene_synonym")])
