"""The glued-word simulation cuts unknown letter-only tokens into known words, and counts alignment."""
from collections import Counter

import spacy

from experiments.glued_word_split import alignment_counts, split_points, word_counts

COUNTS = Counter({"hippocampal": 9, "dendrites": 9, "mice": 50, "blastocysts": 6, "rat": 7, "liver": 8,
                  "lysosomes": 9, "cell": 40, "cells": 40, "phospho": 1})


def test_word_counts_are_lower_cased_letter_words():
    assert word_counts(["Mice and mice", "LC3-II p62"]) == Counter({"mice": 2, "and": 1, "lc": 1, "ii": 1, "p": 1})


def test_a_glued_token_is_cut_into_the_fewest_known_words():
    assert split_points("hippocampaldendrites", COUNTS) == [11]
    assert split_points("ratliverlysosomes", COUNTS) == [3, 8]
    assert split_points("Miceblastocysts", COUNTS) == [4]


def test_known_short_or_unsplittable_tokens_are_kept():
    assert split_points("dendrites", COUNTS) is None          # a known word
    assert split_points("cells", COUNTS) is None              # shorter than min_length
    assert split_points("LC3immunoblot", COUNTS) is None      # not letters only
    assert split_points("phosphocells", COUNTS) is None       # `phospho` is too rare
    assert split_points("qwertyuiop", COUNTS) is None         # no cut into known words


def test_alignment_counts_before_after_and_broken():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("hippocampaldendrites of mice")
    # the Bio-ID mentions as ner_corpus keeps them: (start, end, type, ids)
    doc.user_data["mentions"] = [(0, 11, "tissue", ()), (11, 20, "subcellular", ()), (24, 28, "organism", ()),
                                 (0, 4, "drug", ())]
    out = alignment_counts(nlp, [doc], COUNTS, {"tissue", "subcellular", "organism"})
    assert (out["mentions"], out["misaligned_before"], out["misaligned_after"], out["newly_broken"]) == (3, 2, 0, 0)
    assert out["tokens_cut"] == 1
