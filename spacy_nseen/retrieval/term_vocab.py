"""Vocabularies of the sparse indexes as sorted arrays (memory-mapped from the saved file), not Python dicts.

A dict of 311k terms costs ~34 MB of Python objects per process; these cost a few bytes per term and are
shared file pages. Both are read-only `Mapping[str, int]`s (term → column id) with a vectorised `lookup`.

- `NgramVocab`: character n-grams of at most 3 characters. Each n-gram is packed losslessly into a 64-bit key
  (code point + 1 in 21 bits per character), so a lookup is exact without a string comparison.
- `HashedTermVocab`: words of any length. Sorted 64-bit BLAKE2b hashes point to term ids; every hit is checked
  against the term's UTF-8 bytes, so a hash collision can never give a wrong id.
"""

import hashlib
from pathlib import Path
from typing import Dict, Iterator, List, Mapping, Sequence, Tuple

import numpy

from ..errors import ArtifactError

MAX_PACKED_NGRAM = 3
_BITS = 21  # every code point + 1 (at most 0x110000) fits in 21 bits


def pack_ngram(ngram: str) -> int:
    """RETURNS (int): the 64-bit key of an n-gram of 1 to 3 characters (0 if longer or empty)."""
    if not 0 < len(ngram) <= MAX_PACKED_NGRAM:
        return 0
    return sum((ord(c) + 1) << (_BITS * j) for j, c in enumerate(ngram))


def unpack_ngram(key: int) -> str:
    """RETURNS (str): the n-gram packed in `key`."""
    chars = []
    while key:
        chars.append(chr((key & ((1 << _BITS) - 1)) - 1))
        key >>= _BITS
    return "".join(chars)


def ngram_keys(texts: Sequence[str], lo: int, hi: int) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The packed keys of all n-grams (lo <= n <= hi <= 3) of each text, as `CharNgramTfidf.ngrams` lists them.

    RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): row (text index, int64, grouped by text) and key (uint64)
        of every n-gram occurrence.
    """
    if hi > MAX_PACKED_NGRAM:
        raise ValueError(f"n-grams longer than {MAX_PACKED_NGRAM} characters cannot be packed")
    lengths = numpy.fromiter((len(t) for t in texts), dtype=numpy.int64, count=len(texts))
    code = numpy.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype=numpy.uint32)
    points = code.astype(numpy.uint64) + numpy.uint64(1)
    owner = numpy.repeat(numpy.arange(len(texts), dtype=numpy.int64), lengths)
    ends = numpy.cumsum(lengths)
    rows: List[numpy.ndarray] = []
    keys: List[numpy.ndarray] = []
    for n in range(lo, hi + 1):
        count = len(points) - n + 1
        if count <= 0:
            continue
        key = points[:count].copy()
        for j in range(1, n):
            key |= points[j : j + count] << numpy.uint64(_BITS * j)
        inside = numpy.arange(n, count + n, dtype=numpy.int64) <= ends[owner[:count]]
        rows.append(owner[:count][inside])
        keys.append(key[inside])
    if not rows:
        return numpy.zeros(0, numpy.int64), numpy.zeros(0, numpy.uint64)
    row, key = numpy.concatenate(rows), numpy.concatenate(keys)
    order = numpy.argsort(row, kind="stable")
    return row[order], key[order]


def _sorted_lookup(sorted_keys: numpy.ndarray, keys: numpy.ndarray) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): the first position of each key in `sorted_keys`, or -1 where it is absent."""
    if not len(sorted_keys):
        return numpy.full(len(keys), -1, dtype=numpy.int64)
    pos = numpy.searchsorted(sorted_keys, keys)
    found = pos < len(sorted_keys)
    found[found] = sorted_keys[pos[found]] == keys[found]
    return numpy.where(found, pos, -1)


class NgramVocab(Mapping[str, int]):
    """N-gram → id over sorted packed keys (`packed_keys`, uint64) and the ids in that order (`ids`, int32)."""

    def __init__(self, keys: numpy.ndarray, ids: numpy.ndarray) -> None:
        self.packed_keys = keys
        self.ids = ids

    @classmethod
    def from_dict(cls, vocab: Dict[str, int]) -> "NgramVocab":
        """RETURNS (NgramVocab): the vocabulary of a dict of n-grams of 1 to 3 characters."""
        keys = numpy.fromiter((pack_ngram(g) for g in vocab), dtype=numpy.uint64, count=len(vocab))
        if (keys == 0).any():
            raise ValueError(f"n-grams must have 1 to {MAX_PACKED_NGRAM} characters")
        ids = numpy.fromiter(vocab.values(), dtype=numpy.int32, count=len(vocab))
        order = numpy.argsort(keys)
        return cls(keys[order], ids[order])

    @classmethod
    def from_arrays(cls, keys: numpy.ndarray, ids: numpy.ndarray, path: Path, fix: str) -> "NgramVocab":
        """The vocabulary over saved arrays; ArtifactError unless keys are sorted, unique and ids a permutation."""
        if (
            keys.dtype != numpy.uint64
            or ids.dtype != numpy.int32
            or keys.shape != ids.shape
            or keys.ndim != 1
            or (len(keys) and (int(keys[0]) == 0 or (keys[1:] <= keys[:-1]).any()))
            or not numpy.array_equal(numpy.sort(ids), numpy.arange(len(ids)))
        ):
            raise ArtifactError(path, "its n-gram vocabulary arrays disagree (truncated or foreign file)", fix)
        return cls(keys, ids)

    def lookup(self, keys: numpy.ndarray) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the id (int64) of each packed key, -1 where it is not in the vocabulary."""
        pos = _sorted_lookup(self.packed_keys, keys)
        return numpy.where(pos >= 0, self.ids[numpy.maximum(pos, 0)] if len(self.ids) else -1, -1).astype(numpy.int64)

    def __getitem__(self, ngram: str) -> int:
        found = int(self.lookup(numpy.array([pack_ngram(ngram)], dtype=numpy.uint64))[0])
        if found < 0:
            raise KeyError(ngram)
        return found

    def __len__(self) -> int:
        return len(self.packed_keys)

    def __iter__(self) -> Iterator[str]:
        """The n-grams in id order."""
        by_id = numpy.empty(len(self.packed_keys), dtype=numpy.uint64)
        by_id[self.ids] = self.packed_keys
        return (unpack_ngram(int(k)) for k in by_id)


def term_hash(term: bytes) -> int:
    """RETURNS (int): the 64-bit BLAKE2b hash of a term's UTF-8 bytes (stable across processes)."""
    return int.from_bytes(hashlib.blake2b(term, digest_size=8).digest(), "little")


class HashedTermVocab(Mapping[str, int]):
    """Term → id over the terms' UTF-8 bytes joined by newlines, their offsets, and sorted hashes with their ids."""

    def __init__(self, utf8: numpy.ndarray, offsets: numpy.ndarray, hashes: numpy.ndarray, ids: numpy.ndarray) -> None:
        self.utf8 = numpy.asarray(utf8)  # plain views of memory-mapped arrays (numpy.memmap's indexing is slower)
        self.offsets = numpy.asarray(offsets)
        self.hashes = numpy.asarray(hashes)
        self.ids = numpy.asarray(ids)

    @classmethod
    def from_terms(cls, terms: Sequence[str]) -> "HashedTermVocab":
        """RETURNS (HashedTermVocab): the vocabulary whose term i is `terms[i]` (no newlines in terms)."""
        encoded = [t.encode("utf8") for t in terms]
        if any(b"\n" in e for e in encoded):
            raise ValueError("terms cannot contain newlines")
        ends = numpy.cumsum([len(e) + 1 for e in encoded], dtype=numpy.int64)
        offsets = numpy.zeros(
            len(encoded) + 1, dtype=numpy.uint32 if not len(ends) or ends[-1] < 1 << 32 else numpy.int64
        )
        offsets[1:] = ends
        hashes = numpy.fromiter((term_hash(e) for e in encoded), dtype=numpy.uint64, count=len(encoded))
        order = numpy.argsort(hashes, kind="stable")
        utf8 = numpy.frombuffer(b"\n".join(encoded), dtype=numpy.uint8)
        return cls(utf8, offsets, hashes[order], order.astype(numpy.int32))

    @classmethod
    def from_arrays(
        cls,
        utf8: numpy.ndarray,
        offsets: numpy.ndarray,
        hashes: numpy.ndarray,
        ids: numpy.ndarray,
        path: Path,
        fix: str,
    ) -> "HashedTermVocab":
        """The vocabulary over saved arrays; ArtifactError when their sizes or order disagree."""
        n = len(ids)
        if (
            utf8.dtype != numpy.uint8
            or offsets.dtype not in (numpy.uint32, numpy.int64)
            or hashes.dtype != numpy.uint64
            or ids.dtype != numpy.int32
            or offsets.shape != (n + 1,)
            or hashes.shape != (n,)
            or int(offsets[0]) != 0
            or int(offsets[-1]) != len(utf8) + (1 if n else 0)
            or (n and (numpy.diff(offsets.astype(numpy.int64)) < 1).any())
            or (n and (hashes[1:] < hashes[:-1]).any())
            or not numpy.array_equal(numpy.sort(ids), numpy.arange(n))
        ):
            raise ArtifactError(path, "its term vocabulary arrays disagree (truncated or foreign file)", fix)
        return cls(utf8, offsets, hashes, ids)

    def term_bytes(self, term_id: int) -> bytes:
        """RETURNS (bytes): the UTF-8 bytes of term `term_id`."""
        return self.utf8[int(self.offsets[term_id]) : int(self.offsets[term_id + 1]) - 1].tobytes()

    def lookup(self, terms: Sequence[str]) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the id (int64) of each term, -1 where it is not in the vocabulary."""
        encoded = [t.encode("utf8") for t in terms]
        hashes = numpy.fromiter((term_hash(e) for e in encoded), dtype=numpy.uint64, count=len(encoded))
        first = _sorted_lookup(self.hashes, hashes)
        out = numpy.full(len(encoded), -1, dtype=numpy.int64)
        hits = numpy.flatnonzero(first >= 0)
        if not len(hits):
            return out
        ids = self.ids[first[hits]].astype(numpy.int64)
        starts, ends = self.offsets[ids].tolist(), (self.offsets[ids + 1] - 1).tolist()
        blob = self.utf8.data  # a memoryview of the bytes
        for i, term_id, start, end in zip(hits.tolist(), ids.tolist(), starts, ends):
            if blob[start:end] == encoded[i]:  # the first term with this hash is it (almost always)
                out[i] = term_id
            else:
                out[i] = self._collided(encoded[i], int(first[i]), int(hashes[i]))
        return out

    def _collided(self, term: bytes, pos: int, hash_: int) -> int:
        """RETURNS (int): the id of `term` among the terms sharing its hash from sorted position `pos`, or -1."""
        while pos < len(self.hashes) and int(self.hashes[pos]) == hash_:
            if self.term_bytes(int(self.ids[pos])) == term:
                return int(self.ids[pos])
            pos += 1
        return -1

    def __getitem__(self, term: str) -> int:
        found = int(self.lookup([term])[0])
        if found < 0:
            raise KeyError(term)
        return found

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self) -> Iterator[str]:
        """The terms in id order."""
        text = self.utf8.tobytes().decode("utf8")
        return iter(text.split("\n") if len(self.ids) else [])
