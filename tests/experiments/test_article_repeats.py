"""The article-repeats simulation tags an article's repeatedly tagged names in its other captions only."""
import spacy
from spacy.tokens import Span

from experiments.article_repeats import article_repeats, with_spans


def _doc(nlp, text, ents):
    doc = nlp.make_doc(text)
    doc.ents = [Span(doc, s, e, label=label) for s, e, label in ents]
    return doc


def test_a_name_tagged_in_two_captions_is_tagged_in_the_third():
    nlp = spacy.blank("en")
    docs = [_doc(nlp, "BPD and iron", [(0, 1, "CHEMICAL")]), _doc(nlp, "BPD treated", [(0, 1, "CHEMICAL")]),
            _doc(nlp, "cells with BPD and BPD", []), _doc(nlp, "BPD elsewhere", [])]
    articles = ["a", "a", "a", "b"]
    new = article_repeats(docs, articles, ["CHEMICAL"])
    assert new == [(2, 2, 3, "CHEMICAL"), (2, 4, 5, "CHEMICAL")]        # not in article b
    assert article_repeats(docs, articles, ["PROTEIN"]) == []
    assert article_repeats(docs, articles, ["CHEMICAL"], min_captions=3) == []
    out = with_spans(docs, new)
    assert [(e.text, e.label_) for e in out[2].ents] == [("BPD", "CHEMICAL"), ("BPD", "CHEMICAL")]
    assert list(docs[2].ents) == []                                     # the inputs are not changed


def test_a_repeat_never_overlaps_an_entity_and_the_longest_name_goes_first():
    nlp = spacy.blank("en")
    docs = [_doc(nlp, "Akt inhibitor IV here", [(0, 3, "CHEMICAL")]), _doc(nlp, "Akt inhibitor IV", [(0, 3, "CHEMICAL")]),
            _doc(nlp, "Akt seen", [(0, 1, "PROTEIN")]), _doc(nlp, "Akt again", [(0, 1, "PROTEIN")]),
            _doc(nlp, "Akt inhibitor IV and Akt", [])]
    new = article_repeats(docs, ["a"] * 5, ["CHEMICAL", "PROTEIN"])
    assert new == [(4, 0, 3, "CHEMICAL"), (4, 4, 5, "PROTEIN")]
