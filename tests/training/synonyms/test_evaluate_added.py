import math

from spacy_nseen.synonyms.review_file import ReviewRow
from training.synonyms.evaluate_added import choose_threshold, judged, precision_at


def test_rows_are_judged_by_the_gold_of_their_half_and_kb() -> None:
    gold = {("even", "uniprot", "lc3"): {"UniProt:Q9GZQ8"}, ("odd", "uniprot", "p62"): {"UniProt:Q13501"}}
    rows = [ReviewRow("LC3", "uniprot", "UniProt:Q9GZQ8", "", 0.9), ReviewRow("LC-3", "uniprot", "UniProt:X", "", 0.8),
            ReviewRow("p62", "uniprot", "UniProt:Q13501", "", 0.7), ReviewRow("LC3", "chebi", "CHEBI:1", "", 0.6)]
    assert judged(rows, gold, "even") == [(0.9, True), (0.8, False)]
    assert judged(rows, gold, "odd") == [(0.7, True)]


def test_threshold_is_the_lowest_score_reaching_the_precision() -> None:
    items = [(0.95, True), (0.9, True), (0.8, True), (0.7, False), (0.6, True), (0.5, False)]
    assert precision_at(items, 0.6) == (0.8, 5)
    assert choose_threshold(items, 0.9, min_judged=2) == 0.8
    assert choose_threshold(items, 0.9, min_judged=4) is None
    assert choose_threshold(items, 0.75, min_judged=2) == 0.6
    assert math.isnan(precision_at(items, 0.99)[0])
