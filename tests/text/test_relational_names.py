"""Names that are the mention plus a relational head are another molecule."""
import pytest

from spacy_nseen.text.relational_names import leading_word, normalized, relational_extension


@pytest.mark.parametrize("mention,name", [
    ("LC3", "Lc3 synthase"),
    ("EGF", "EGF receptor"),
    ("p53", "p53-binding protein 1"),
    ("Akt", "AKT_interacting protein"),
    ("TNF", "TNF receptor 2A"),
    ("MAPK", "MAPK kinase kinase"),
    ("ubiquitin", "Ubiquitin ligase"),
    ("Ub", "UB fusion protein 1"),                  # UFD1, not ubiquitin
    ("Ub", "Ub-specific protease 30"),              # USP30
    ("Ub", "Ub-specific peptidase 8"),
    ("lysozyme", "Lysozyme-like protein 1"),
])
def test_a_relational_head_after_the_mention_is_another_molecule(mention, name):
    assert relational_extension(mention, name)


@pytest.mark.parametrize("mention,name", [
    ("LC3", "LC3"),                              # the name itself
    ("LC3", "Autophagy-related protein LC3 C"),  # the mention inside, not before a head
    ("Akt", "Akt kinase"),                       # a head that restates what Akt is
    ("Raf", "Raf proto-oncogene"),
    ("EGF", "EGFR"),                             # no word boundary
    ("LC3", "Lc3 synthase related protein"),     # more than a head after the mention
    ("ubiquitin", "Ubiquitin-like protein ISG15 fusion"),  # more than a head after the mention
    ("", "receptor"),
    ("  ", "   receptor"),
])
def test_other_names_are_not_relational(mention, name):
    assert not relational_extension(mention, name)


def test_normalized_folds_case_and_separators():
    assert normalized(" PKC-δ_binding / Protein ") == "pkc δ binding protein"


@pytest.mark.parametrize("text, lead", [("NF-kB", "nf"), ("LC3", "lc3"), ("  p53 binding", "p53"), ("-LC3", ""),
                                        ("Straße/2", "strasse")])
def test_leading_word_is_the_case_folded_first_word(text: str, lead: str):
    assert leading_word(text) == lead


@pytest.mark.parametrize("mention, name", [("NF-kappa-B", "NF-kappa-B inhibitor alpha"), ("PDGF", "PDGF receptor beta")])
def test_a_greek_member_letter_after_the_head_is_still_relational(mention: str, name: str):
    assert relational_extension(mention, name)
