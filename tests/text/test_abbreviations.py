import pytest

from spacy_nseen.text.abbreviations import abbreviation_map, best_long_form, find_abbreviations


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
