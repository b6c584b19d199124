"""Property-based tests (hypothesis): the character vocabulary, the exact-match normalisation and the linker
take any string and give a well-formed result; linking is deterministic (issue 7)."""
import math
import os
import string
import unicodedata

import numpy
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from rel_support import TINY_ENCODER, doc_with_ents

from spacy_nseen.encoder.vocab import PAD_ID, UNK_ID, CharVocab
from spacy_nseen.text.greek import GREEK_LETTERS
from spacy_nseen.text.normalization import DASHES, loose_key, strict_key

# Reproducible in CI (CI=true), exploring new examples elsewhere; no example database in the work tree.
SETTINGS = dict(deadline=None, database=None, derandomize=bool(os.environ.get("CI")),
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
# Any code point, lone surrogates included (st.text() leaves them out by default).
ANY_CHAR = st.characters(codec=None, categories=None)
ANY_TEXT = st.text(ANY_CHAR, max_size=80)
# What can be in a spaCy Doc: no lone surrogates, no empty token.
DOC_TEXT = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=40)
ASCII_NAME = st.text(string.ascii_letters + string.digits, min_size=1, max_size=20)
MAX_LENGTH = int(TINY_ENCODER["max_length"])


# -- the character vocabulary ------------------------------------------------------------------------


@settings(max_examples=200, **SETTINGS)
@given(texts=st.lists(st.text(max_size=30), max_size=5), text=ANY_TEXT, capacity=st.integers(2, 300), max_length=st.integers(1, 100))
@pytest.mark.parametrize("normalization", ["nfc", "fold"])
def test_char_vocab_encodes_any_string(texts, text, capacity, max_length, normalization):
    vocab = CharVocab.from_texts(texts, capacity, normalization)
    ids = vocab.encode(text, max_length)
    normalized = vocab.normalize(text)
    if normalization == "nfc":
        assert normalized == unicodedata.normalize("NFC", text)
    assert len(ids) == (min(len(normalized), max_length) if normalized else 1)
    assert all(isinstance(i, int) and UNK_ID <= i < capacity for i in ids), "never padding, never out of the table"
    assert ids == vocab.encode(text, max_length)
    assert ids == vocab.encode(normalized, max_length), "normalising twice changes nothing"
    if normalization == "nfc":
        assert ids == vocab.encode(normalized[:max_length], max_length), "the first max_length NFC characters decide"
    matrix, lengths = vocab.batch([text, "", text + "x"], max_length)
    assert matrix.dtype == numpy.int64 and lengths.tolist()[:2] == [len(ids), 1]
    assert matrix[0, : len(ids)].tolist() == ids and (matrix[0, len(ids):] == PAD_ID).all()


@settings(max_examples=100, **SETTINGS)
@given(texts=st.lists(st.text(min_size=1, max_size=30), min_size=1, max_size=5), capacity=st.integers(2, 300))
def test_char_vocab_disk_round_trip_keeps_every_id(tmp_path_factory, texts, capacity):
    vocab = CharVocab.from_texts(texts, capacity)
    path = tmp_path_factory.mktemp("vocab") / "char_vocab.json"
    vocab.to_disk(path)
    loaded = CharVocab.from_disk(path)
    assert loaded.chars == vocab.chars and loaded.capacity == capacity
    for text in texts:
        assert loaded.encode(text, 64) == vocab.encode(text, 64)


# -- the exact-match normalisation ---------------------------------------------------------------------


@settings(max_examples=300, **SETTINGS)
@given(ANY_TEXT)
def test_keys_of_any_string(text):
    strict, loose = strict_key(text), loose_key(text)
    assert isinstance(strict, str) and isinstance(loose, str)
    assert (strict, loose) == (strict_key(text), loose_key(text)), "deterministic"
    assert strict == strict.strip() and "  " not in strict
    assert not any(dash in strict for dash in DASHES if dash != "-")
    assert not any(char in string.whitespace + string.punctuation for char in loose)
    if not text.strip():
        assert strict == ""


@settings(max_examples=200, **SETTINGS)
@given(name=st.text(string.ascii_letters + string.digits + " -", min_size=1, max_size=30), dash=st.sampled_from(DASHES),
       pad=st.text(" \t\n\u00a0\u3000", max_size=3))
def test_strict_key_ignores_case_padding_and_dash_forms(name, dash, pad):
    variant = pad + name.swapcase().replace("-", dash) + pad
    assert strict_key(variant) == strict_key(name)
    assert strict_key(" ".join(name.split())) == strict_key(name.replace("\t", " "))


@settings(max_examples=200, **SETTINGS)
@given(left=ASCII_NAME, right=ASCII_NAME, letter=st.sampled_from(sorted(GREEK_LETTERS)), separators=st.text(" -_/.,()", max_size=3))
def test_loose_key_spells_out_greek_and_ignores_punctuation(left, right, letter, separators):
    spelled = loose_key(f"{left}{separators}{GREEK_LETTERS[letter]}{separators}{right}")
    assert loose_key(f"{left}{letter}{right}") == spelled
    assert loose_key(f"{left}{letter.upper()}{right}") == spelled
    assert spelled == (left + GREEK_LETTERS[letter] + right).casefold()


# -- the linker --------------------------------------------------------------------------------------


def assert_candidates(candidates, reference, top_k):
    assert isinstance(candidates, list) and len(candidates) <= top_k
    kb_ids = [c.kb_id for c in candidates]
    assert len(set(kb_ids)) == len(kb_ids)
    for kb_id, name, score in candidates:
        assert kb_id in reference and name in reference.names_of(kb_id)
        assert isinstance(score, float) and math.isfinite(score) and -1.0 - 1e-6 <= score <= 1.0
    scores = [c.score for c in candidates]
    assert scores == sorted(scores, reverse=True)


@settings(max_examples=80, **SETTINGS)
@given(mentions=st.lists(ANY_TEXT, min_size=1, max_size=6), top_k=st.integers(1, 8), mode=st.sampled_from(["hybrid", "dense"]))
def test_linker_gives_well_formed_deterministic_results(rel_linkers, mentions, top_k, mode):
    linker = rel_linkers["uniprot"]  # built with cache_size=0: every call really encodes and searches
    results = linker.link(mentions, top_k=top_k, mode=mode)
    assert len(results) == len(mentions)
    for mention, candidates in zip(mentions, results):
        assert_candidates(candidates, linker.reference_set, top_k)
        assert (len(candidates) == 0) == (not mention.strip()), "only blank mentions get nothing"
    assert linker.link(mentions, top_k=top_k, mode=mode) == results


@settings(max_examples=80, **SETTINGS)
@given(row=st.integers(0, 10_000), pad=st.text(" \t", max_size=2), swap=st.booleans())
def test_a_reference_name_in_any_case_and_padding_is_an_exact_match(rel_linkers, row, pad, swap):
    reference = rel_linkers["uniprot"].reference_set
    name = reference.names[row % len(reference)]
    mention = pad + (name.swapcase() if swap else name) + pad
    assume(strict_key(mention) == strict_key(name))
    [best, *_] = rel_linkers["uniprot"].link([mention], top_k=3)[0]
    assert best.score == 1.0 and strict_key(best.name) == strict_key(name)


@settings(max_examples=40, **SETTINGS)
@given(
    mentions=st.lists(DOC_TEXT, min_size=1, max_size=8),
    labels=st.lists(st.sampled_from(["PROTEIN", "CHEMICAL", "DISEASE"]), min_size=8, max_size=8),
)
def test_component_gives_well_formed_deterministic_results(rel_linker_nlp, rel_linkers, mentions, labels):
    pipe = rel_linker_nlp.get_pipe("nseen_linker")
    ents = [(i, i + 1, labels[i]) for i in range(len(mentions))]
    first = pipe(doc_with_ents(rel_linker_nlp, mentions, ents))
    second = pipe(doc_with_ents(rel_linker_nlp, mentions, ents))
    views = []
    for doc in (first, second):
        views.append([(e.text, e.label_, e.kb_id_, e._.kb_id, e._.kb_score, e._.kb_candidates) for e in doc.ents])
        for ent in doc.ents:
            if ent.label_ == "DISEASE":
                assert (ent._.kb_id, ent._.kb_candidates) == (None, None)
                continue
            reference = rel_linkers["uniprot" if ent.label_ == "PROTEIN" else "chebi"].reference_set
            candidates = ent._.kb_candidates
            assert (candidates == []) == (not ent.text.strip())
            assert len(candidates) <= pipe.top_k
            for kb_id, name, score in candidates:
                assert kb_id in reference and name in reference.names_of(kb_id) and math.isfinite(score)
            assert ent.kb_id_ == (ent._.kb_id or "")
    assert views[0] == views[1]
