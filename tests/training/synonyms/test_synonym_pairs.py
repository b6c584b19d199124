import numpy

from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.synonyms.contexts import MentionContext, MentionStats
from spacy_nseen.synonyms.name_lookup import NameLookup
from training.synonyms.make_pairs import groups_of, make_pairs, names_of_corpus, split_of


def stats(mention: str, n: int, label: str = "PROTEIN") -> MentionStats:
    contexts = [MentionContext(f"x {mention} y", 2, 2 + len(mention), f"d{i}", f"a{i}") for i in range(n)]
    return MentionStats(mention, label=label, n_mentions=n, contexts=contexts)


REFERENCE = ReferenceSet.from_rows([
    ("E1", "LC3B", "gene_primary"), ("E1", "MAP1LC3B", "alternative"),
    ("E2", "LC3A", "gene_primary"), ("E2", "MAP1LC3A", "alternative"),
    ("E3", "p62", "gene_primary"), ("E3", "SQSTM1", "gene_primary"),
])


def test_names_of_corpus_pool_surfaces_by_loose_key_and_need_contexts() -> None:
    corpus = {m.mention: m for m in [stats("LC3B", 3), stats("Lc3b", 1), stats("MAP1LC3B", 2), stats("p62", 1),
                                     stats("GFP", 5), stats("SQSTM1", 4, label="CHEMICAL")]}
    names = names_of_corpus(corpus, NameLookup(REFERENCE), ["PROTEIN"], min_contexts=2, max_entities=6)
    assert sorted(names) == ["lc3b", "map1lc3b"]
    assert names["lc3b"]["surfaces"] == ["LC3B", "Lc3b"] and names["lc3b"]["n_contexts"] == 4


def test_groups_join_names_sharing_an_entity_and_splits_are_by_group() -> None:
    names = {"a": {"entities": ["E1"]}, "b": {"entities": ["E1", "E2"]}, "c": {"entities": ["E2"]}, "d": {"entities": ["E3"]}}
    groups = groups_of(names)
    assert groups["a"] == groups["b"] == groups["c"] == "E1" and groups["d"] == "E3"
    assert split_of("E1", 0.15, 0.15, 0) == split_of("E1", 0.15, 0.15, 0) in ("train", "dev", "test")
    shares = [split_of(f"G{i}", 0.2, 0.2, 0) for i in range(2000)]
    assert 0.15 < shares.count("test") / 2000 < 0.25


def test_pairs_have_positives_and_negatives_without_shared_entities() -> None:
    names = {k: {"entities": [e], "surfaces": [k]} for k, e in
             [("lc3b", "E1"), ("map1lc3b", "E1"), ("lc3a", "E2"), ("map1lc3a", "E2"), ("p62", "E3"), ("sqstm1", "E3")]}
    keys = sorted(names)
    rng = numpy.random.default_rng(0)
    vectors = rng.normal(size=(len(keys), 4)).astype("float32")
    vectors /= numpy.linalg.norm(vectors, axis=1, keepdims=True)
    pairs = make_pairs(names, vectors, {k: "train" for k in keys}, 10, 0)
    positives = [p for p in pairs if p["label"] == 1]
    assert len(positives) == 3
    for p in pairs:
        same = names[p["a"]]["entities"] == names[p["b"]]["entities"]
        assert same == (p["label"] == 1) and -1.0 <= p["string_score"] <= 1.0
    assert {p["kind"] for p in pairs} == {"positive", "random", "string_similar"}
