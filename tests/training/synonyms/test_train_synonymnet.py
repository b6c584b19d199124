import random

from spacy_nseen.synonyms.contexts import MentionContext
from training.synonyms.train_synonymnet import pair_inputs, self_pair_examples, triples


def contexts(name: str, n: int) -> list:
    return [MentionContext(f"{i} {name}", len(str(i)) + 1, len(str(i)) + 1 + len(name), f"d{i}", "a") for i in range(n)]


def test_a_name_paired_with_itself_gets_disjoint_halves() -> None:
    pooled = {"x": contexts("x", 6), "y": contexts("y", 3)}
    first, second = pair_inputs({"a": "x", "b": "x"}, pooled, 8, random.Random(0))
    assert len(first) == len(second) == 3 and not set(first) & set(second)
    first, second = pair_inputs({"a": "x", "b": "y"}, pooled, 2, random.Random(0))
    assert len(first) == 2 and len(second) == 2 and all(c.text.endswith("y") for c in second)


def test_self_pairs_only_for_names_with_enough_contexts() -> None:
    pooled = {"x": contexts("x", 6), "y": contexts("y", 3), "z": contexts("z", 5)}
    train = [{"a": "x", "b": "y", "label": 1}, {"a": "x", "b": "z", "label": 0}]
    examples = self_pair_examples(train, pooled, 2, random.Random(0))
    positives = [e for e in examples if e["label"] == 1]
    assert sorted(e["a"] for e in positives) == ["x", "x", "z", "z"] and all(e["a"] == e["b"] for e in positives)
    assert all(e["a"] != e["b"] for e in examples if e["label"] == 0)


def test_triples_pair_each_positive_with_the_anchors_negatives() -> None:
    pairs = [{"a": "x", "b": "y", "label": 1}, {"a": "x", "b": "z", "label": 0}, {"a": "x", "b": "w", "label": 0}]
    assert triples(pairs) == [("x", "y", "z"), ("x", "y", "w")]
