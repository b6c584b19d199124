from typing import Dict, List

import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_nseen.retrieval import exact_names
from spacy_nseen.retrieval.exact_names import ExactNameIndex
from spacy_nseen.text.normalization import loose_key, strict_key

NAMES = ["FOXP2", "PLC-gamma-2", "plc gamma 2", "p70", "P70", "IKK-epsilon", "Ca2+", "--", "β-catenin", "FOXP2"]
MENTIONS = ["foxp2", "FOX-P2", "PLCγ2", "p70", "IKK\u2010epsilon", "ca2", "-", "Β-CATENIN", "nothing", "", "🧬"]


def dict_lookup(names: List[str], mention: str) -> Dict[int, int]:
    """The look-up as the linker did it before (two dicts of every name's keys)."""
    strict: Dict[str, List[int]] = {}
    loose: Dict[str, List[int]] = {}
    for row, name in enumerate(names):
        strict.setdefault(strict_key(name), []).append(row)
        if loose_key(name):
            loose.setdefault(loose_key(name), []).append(row)
    found: Dict[int, int] = {}
    for tier, rows in ((2, strict.get(strict_key(mention), [])), (1, loose.get(loose_key(mention), []))):
        for row in rows:
            found.setdefault(row, tier)
    return found


@pytest.mark.parametrize("mention", MENTIONS)
def test_same_rows_and_order_as_dicts(mention):
    found = ExactNameIndex.build(NAMES).lookup(mention)
    assert list(found.items()) == list(dict_lookup(NAMES, mention).items())


@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(max_size=8), min_size=1, max_size=8), st.text(max_size=8))
def test_any_unicode_same_as_dicts(names, mention):
    assert list(ExactNameIndex.build(names).lookup(mention).items()) == list(dict_lookup(names, mention).items())


def test_hash_collisions_never_give_wrong_rows(monkeypatch):
    monkeypatch.setattr(exact_names, "key_hash", lambda key: 7)
    index = ExactNameIndex.build(NAMES)
    for mention in MENTIONS:
        assert index.lookup(mention) == dict_lookup(NAMES, mention)


def test_arrays_round_trip_and_changed_key_functions(monkeypatch):
    index = ExactNameIndex.build(NAMES)
    arrays = index.to_arrays()
    loaded = ExactNameIndex.from_arrays(NAMES, arrays)
    assert all(loaded.lookup(m) == index.lookup(m) for m in MENTIONS)
    # saved with other key functions: the fingerprint differs and the keys are computed again
    stale = dict(arrays, strict_hash=numpy.zeros_like(arrays["strict_hash"]), key_fingerprint=numpy.asarray([1], dtype=numpy.int64))
    assert ExactNameIndex.from_arrays(NAMES, stale).lookup("foxp2") == {0: 2, 9: 2}
    with pytest.raises(ValueError):
        ExactNameIndex(NAMES, (numpy.zeros(2, numpy.int64), numpy.zeros(1, numpy.int32)), index.loose)


def test_lookup_many_is_lookup_per_mention():
    index = ExactNameIndex.build(NAMES)
    assert index.lookup_many(MENTIONS) == [dict_lookup(NAMES, m) for m in MENTIONS]
    assert index.lookup_many([]) == []


def test_misaligned_saved_arrays_are_copied_once():
    # numpy.savez may store an array at an offset that is not a multiple of 8; a search on such a map would
    # copy it every time, so the index keeps an aligned copy.
    index = ExactNameIndex.build(NAMES)
    raw = numpy.zeros(len(index.loose[0]) * 8 + 4, dtype=numpy.uint8)
    misaligned = numpy.frombuffer(raw.data, dtype=numpy.int64, count=len(index.loose[0]), offset=4)
    assert not misaligned.flags.aligned
    copied = ExactNameIndex(NAMES, index.strict, (misaligned, index.loose[1]))
    assert copied.loose[0].flags.aligned


def test_excluded_rows_never_match():
    from spacy_nseen.retrieval.exact_names import ExactNameIndex

    names = ["LC3", "lc3", "MAP1LC3A"]
    calls = []
    index = ExactNameIndex.build(names)
    assert set(index.lookup("LC3")) == {0, 1}

    def excluded():
        calls.append(1)
        return [0]

    index.exclude(excluded)
    assert calls == []  # computed on the first look-up, not before
    assert set(index.lookup("LC3")) == {1}
    assert set(index.lookup_many(["lc3", "MAP1LC3A"])[0]) == {1}
    assert calls == [1]
