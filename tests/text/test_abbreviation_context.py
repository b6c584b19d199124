"""`ContextAbbreviations`: the long forms the other texts define, as `abbreviation_map` of them reads them."""
import random

import pytest

from spacy_nseen.text.abbreviation_context import ContextAbbreviations
from spacy_nseen.text.abbreviations import abbreviation_map

DEFINITIONS = ["chloroquine (CQ)", "chloro quinoline (CQ)", "light chain 3 (LC3)", "bafilomycin A1 (BafA1)",
               "cycloheximide (CHX)", "conditioned quiescence (CQ)", "no definition here", "LC3 and CQ"]


@pytest.mark.parametrize("seed", range(30))
def test_long_forms_without_a_text_are_those_of_the_others(seed):
    rng = random.Random(seed)
    texts = [". ".join(rng.choice(DEFINITIONS) for _ in range(rng.randint(0, 3))) for _ in range(rng.randint(1, 9))]
    context = ContextAbbreviations(texts)
    shorts = ["CQ", "LC3", "BafA1", "CHX", "XYZ"]
    assert context.long_forms(shorts) == {s: lf for s, lf in abbreviation_map(texts).items() if s in shorts}
    for i in range(len(texts)):
        expected = abbreviation_map(texts[:i] + texts[i + 1:])
        assert context.long_forms(shorts, without=i) == {s: lf for s, lf in expected.items() if s in shorts}


def test_ties_go_to_the_first_long_form_seen():
    context = ContextAbbreviations(["conditioned quiescence (CQ)", "chloroquine (CQ)", "chloroquine (CQ)"])
    assert context.long_form("CQ") == "chloroquine"
    assert context.long_form("CQ", without=1) == "conditioned quiescence"
    assert context.long_form("CQ", without=0) == "chloroquine"
    assert context.long_form("LC3") is None
