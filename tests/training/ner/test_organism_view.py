"""training.ner.organism_view: every occurrence of a name the article labels ORGANISM."""
import spacy

from training.ner.organism_view import article_names, consistent_organism_gold, occurrences


def docs():
    nlp = spacy.blank("en")
    a1 = nlp("Mice and rabbit cells.")
    a2 = nlp("Two mice; E. coli mice-derived. Rabbit anti-GFP.")
    b = nlp("Mice were used.")
    a1.user_data["pmc_id"], a2.user_data["pmc_id"], b.user_data["pmc_id"] = "1", "1", "2"
    return [a1, a2, b]


def test_occurrences_are_case_insensitive_whole_words_longest_first() -> None:
    assert occurrences("Mice, mice-derived, micex and E. coli", {"mice", "e. coli", "coli"}) == [
        (0, 4), (6, 10), (30, 37)]
    assert occurrences("anything", {"", " "}) == []


def test_the_view_adds_other_occurrences_within_the_article_only() -> None:
    d = docs()
    gold = {(0, 0, 4, "ORGANISM"), (1, 32, 38, "PROTEIN")}  # "Mice" in article 1; "Rabbit" (PROTEIN) in doc 1
    assert article_names(d, gold) == {"1": {"mice"}}
    view = consistent_organism_gold(d, gold)
    # doc 1: "mice" twice (the second before a hyphen); doc 2 is another article, so its "Mice" is not added
    assert view == {(0, 0, 4, "ORGANISM"), (1, 4, 8, "ORGANISM"), (1, 18, 22, "ORGANISM")}


def test_an_occurrence_overlapping_another_label_is_not_added() -> None:
    d = docs()
    gold = {(0, 9, 15, "ORGANISM"), (1, 32, 38, "CHEMICAL")}  # "rabbit"; "Rabbit" in doc 1 is CHEMICAL gold
    assert consistent_organism_gold(d, gold) == {(0, 9, 15, "ORGANISM")}
