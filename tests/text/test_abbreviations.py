import pytest

from spacy_nseen.text.abbreviations import (
    abbreviation_map,
    best_long_form,
    defined_long_forms,
    find_abbreviations,
    searched_form,
)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("cells treated with chloroquine (CQ) or 3-methyladenine (3-MA; 10 mM).",
         [("CQ", "chloroquine"), ("3-MA", "3-methyladenine")]),
        ("in the presence of bafilomycin A1 (BafA1)", [("BafA1", "bafilomycin A1")]),
        ("with lipopolysaccharide (LPS, 1 µg/ml) for 2 h", [("LPS", "lipopolysaccharide")]),
        ("levels of reactive oxygen species (ROS) rose", [("ROS", "reactive oxygen species")]),
        ("10 nM 1,25-dihydroxyvitamin D3 (1,25D3)", [("1,25D3", "1,25-dihydroxyvitamin D3")]),
        ("treated with the antioxidant (NAC)", []),  # the letters of NAC are not in the words before
        ("mice (n = 5) and (a) panels", []),  # not short forms
        ("p62 (SQSTM1) puncta", []),  # the other order is not looked for
    ],
)
def test_find_abbreviations(text, expected):
    assert find_abbreviations(text) == expected


def test_best_long_form_needs_the_first_letter_at_a_word_start():
    assert best_long_form("HU", "cells with hydroxyurea") == "hydroxyurea"
    assert best_long_form("XY", "cells with hydroxyurea") is None
    assert best_long_form("TNF", "the tumor necrosis factor") == "tumor necrosis factor"


def test_abbreviation_map_keeps_the_most_frequent_long_form():
    texts = ["retinoic acid (RA)", "the respiratory appendages (RA)", "with retinoic acid (RA)", "no definition"]
    assert abbreviation_map(texts) == {"RA": "retinoic acid"}
    assert abbreviation_map([]) == {}


def test_defined_long_forms_prefer_the_text_then_the_nearest_context():
    text = "Cells treated with hydroxyurea (HU); CQ and HU."
    figure = ["Panel B: chloroquine (CQ) for 2 h"]
    article = ["with chloroquine diphosphate (CQ) and heat shock (HS)", "mice fed (HU) humanised urine (HU)"]
    found = defined_long_forms(text, figure, article)
    assert found["HU"] == "hydroxyurea"  # the text's own definition wins over the article's
    assert found["CQ"] == "chloroquine"  # the figure's panels are nearer than the article
    assert found["HS"] == "heat shock"  # only the article defines it
    assert defined_long_forms(text) == {"HU": "hydroxyurea"}
    assert defined_long_forms(text, None, []) == {"HU": "hydroxyurea"}  # missing context groups are skipped


def test_searched_form_keeps_a_mention_that_is_a_name_when_its_long_form_is_not():
    names = {"LC3", "chloroquine", "Microtubule-associated protein 1 light chain 3", "CQ-1"}
    is_name = names.__contains__
    assert searched_form("CQ", "chloroquine", is_name) == "chloroquine"  # the short form is no name
    assert searched_form("LC3", "light chain 3", is_name) == "LC3"  # the author's long form is no name; LC3 is
    assert searched_form("LC3", "Microtubule-associated protein 1 light chain 3", is_name) == \
        "Microtubule-associated protein 1 light chain 3"  # both are names: the definition decides
    assert searched_form("CQ", "cell quiescence", is_name) == "cell quiescence"  # neither is a name: the long form
    assert searched_form("LC3", None, is_name) == "LC3" and searched_form("LC3", "", is_name) == "LC3"
