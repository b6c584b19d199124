from spacy_nseen.synonyms.contexts import MentionContext, MentionStats
from training.synonyms.evaluate_missing import article_number, hits, pooled_contexts, without_articles


def test_article_numbers_ignore_leading_zeros() -> None:
    assert article_number("0140041") == article_number("140041") == 140041
    assert article_number("unl:x") is None


def test_dev_article_contexts_are_dropped_and_strings_pooled_by_key() -> None:
    contexts = [MentionContext("x LC3B", 2, 6, "c1", "0140041"), MentionContext("y LC3B", 2, 6, "u1", "unl:1")]
    stats = {"LC3B": MentionStats("LC3B", n_mentions=2, contexts=contexts),
             "LC3-B": MentionStats("LC3-B", n_mentions=1, contexts=[MentionContext("z LC3-B", 2, 7, "u2", "unl:2")])}
    kept = without_articles(stats, {140041})
    assert [c.doc_id for c in kept["LC3B"].contexts] == ["u1"] and kept["LC3B"].n_mentions == 2
    assert [c.doc_id for c in pooled_contexts(kept)["lc3b"]] == ["u1", "u2"]


def test_hits() -> None:
    assert hits([["a", "b"], ["c"]], [frozenset({"b"}), frozenset({"c"})], 1) == 0.5
    assert hits([["a", "b"], ["c"]], [frozenset({"b"}), frozenset({"c"})], 5) == 1.0
