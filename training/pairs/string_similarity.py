"""String similarities used as soft pair labels (NSEEN §3.1): trigram Jaccard,
normalised Levenshtein and Jaro-Winkler, each in [0, 1] (1 = identical).

Levenshtein and Jaro-Winkler are rapidfuzz's `normalized_similarity`
(`1 - distance / max(len)` and Jaro-Winkler with prefix weight 0.1). rapidfuzz has
no n-gram Jaccard, so `jaccard3` is computed here: the Jaccard index of the sets
of character trigrams of the strings padded with two spaces on each side (so
strings shorter than 3 characters still have trigrams); two empty strings score 1.
"""
from typing import Callable, Dict, FrozenSet, Sequence

import numpy as np
from rapidfuzz.distance import JaroWinkler, Levenshtein
from rapidfuzz.process import cpdist

NGRAM = 3
PAD = " " * (NGRAM - 1)


def char_ngrams(text: str, n: int = NGRAM) -> FrozenSet[str]:
    """Return the set of character n-grams of `text` padded with n-1 spaces on each side.

    text (str): The string.
    n (int): The n-gram length.
    RETURNS (FrozenSet[str]): The n-grams.
    """
    padded = " " * (n - 1) + text + " " * (n - 1)
    return frozenset(padded[i : i + n] for i in range(len(padded) - n + 1))


def jaccard3(a: str, b: str) -> float:
    """Trigram Jaccard similarity of two strings.

    a (str): The first string.
    b (str): The second string.
    RETURNS (float): |A ∩ B| / |A ∪ B| of their padded trigram sets, in [0, 1].
    """
    if a == b:
        return 1.0
    ga, gb = char_ngrams(a), char_ngrams(b)
    return len(ga & gb) / len(ga | gb)


def levenshtein(a: str, b: str) -> float:
    """Normalised Levenshtein similarity, `1 - distance / max(len(a), len(b))`.

    RETURNS (float): The similarity in [0, 1].
    """
    return float(Levenshtein.normalized_similarity(a, b))


def jaro_winkler(a: str, b: str) -> float:
    """Jaro-Winkler similarity (rapidfuzz, prefix weight 0.1).

    RETURNS (float): The similarity in [0, 1].
    """
    return float(JaroWinkler.normalized_similarity(a, b))


SIMILARITIES: Dict[str, Callable[[str, str], float]] = {
    "jaccard3": jaccard3,
    "levenshtein": levenshtein,
    "jaro_winkler": jaro_winkler,
}


def pairwise_similarity(
    measure: str, left: Sequence[str], right: Sequence[str], workers: int = 1
) -> np.ndarray:
    """Compute one similarity for each pair (left[i], right[i]).

    measure (str): "jaccard3", "levenshtein" or "jaro_winkler".
    left (Sequence[str]): First strings.
    right (Sequence[str]): Second strings, same length.
    workers (int): Threads for rapidfuzz (the Jaccard loop is single-threaded).
    RETURNS (np.ndarray): float32 similarities in [0, 1].
    """
    if len(left) != len(right):
        raise ValueError(f"left and right differ in length: {len(left)} != {len(right)}")
    if measure not in SIMILARITIES:
        raise ValueError(f"unknown similarity {measure!r}; choose from {sorted(SIMILARITIES)}")
    if not len(left):
        return np.zeros(0, dtype=np.float32)
    if measure == "jaccard3":
        values = np.fromiter((jaccard3(a, b) for a, b in zip(left, right)), np.float64, len(left))
    else:
        scorer = Levenshtein if measure == "levenshtein" else JaroWinkler
        values = cpdist(
            list(left), list(right), scorer=scorer.normalized_similarity, workers=workers, dtype=np.float64
        )
    return np.clip(values, 0.0, 1.0).astype(np.float32)
