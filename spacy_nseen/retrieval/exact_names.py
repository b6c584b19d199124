"""The exact-match look-up of a reference set: which names share a mention's strict or loose key.

Keys (see `name_normalization`) are stored as sorted 64-bit hashes with the row of each name, so a saved
look-up loads as two memory-mapped arrays instead of two Python dicts of every name. A hash hit is
confirmed by recomputing the key of the candidate name, so a hash collision never yields a wrong row.
"""

from hashlib import blake2b
from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

import numpy

from ..text.normalization import loose_key, strict_key

# Strings whose keys are stored in a saved look-up: if the key functions change, the keys of these strings
# change too, and the saved hashes are recomputed instead of used (see `key_fingerprint`).
FINGERPRINT_PROBES = ("PLCγ2", "IKK\u2010ε", "Histone  H3", "ＡＢＣ", "β-catenin", "Ca²⁺", "E.coli", "ǅ")
STRICT_TIER = 2
LOOSE_TIER = 1


def key_hash(key: str) -> int:
    """RETURNS (int): a stable signed 64-bit hash of a key (the same in every process)."""
    digest = blake2b(key.encode("utf8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


def key_fingerprint() -> int:
    """RETURNS (int): a hash of the keys of fixed probe strings, to detect changed key functions."""
    return key_hash("\n".join(f"{strict_key(p)}\t{loose_key(p)}" for p in FINGERPRINT_PROBES))


class ExactNameIndex:
    """Rows of the names whose strict (tier 2) or loose (tier 1) key equals a mention's.

    names (Sequence[str]): the reference names; row i is names[i].
    strict (Tuple[numpy.ndarray, numpy.ndarray]): sorted int64 key hashes and the int32 row of each.
    loose (Tuple[numpy.ndarray, numpy.ndarray]): the same for the loose keys (names with an empty loose
        key are left out).
    """

    def __init__(
        self,
        names: Sequence[str],
        strict: Tuple[numpy.ndarray, numpy.ndarray],
        loose: Tuple[numpy.ndarray, numpy.ndarray],
    ) -> None:
        for hashes, rows in (strict, loose):
            if len(hashes) != len(rows):
                raise ValueError("key hashes and rows must have the same length")
        self.names = names
        # Plain, aligned ndarray views (of a memory map after loading): numpy.memmap's own indexing is slower,
        # and numpy copies a misaligned array on every search.
        self.strict = (_aligned(strict[0]), _aligned(strict[1]))
        self.loose = (_aligned(loose[0]), _aligned(loose[1]))
        self._exclusion: Optional[Callable[[], Iterable[int]]] = None
        self._excluded: FrozenSet[int] = frozenset()

    def exclude(self, rows: Callable[[], Iterable[int]]) -> None:
        """Never match the rows that `rows()` gives (called on the first look-up, so loading stays fast):
        names that are not names as written, such as derived short forms (`reference.short_form_names`)."""
        self._exclusion = rows
        self._excluded = frozenset()

    def _excluded_rows(self) -> FrozenSet[int]:
        if self._exclusion is not None:
            self._excluded = frozenset(int(row) for row in self._exclusion())
            self._exclusion = None
        return self._excluded

    @classmethod
    def build(cls, names: Sequence[str]) -> "ExactNameIndex":
        """Compute the keys of every name (a few seconds per 100,000 names)."""
        strict_hashes = [key_hash(strict_key(name)) for name in names]
        loose_rows: List[int] = []
        loose_hashes: List[int] = []
        for row, name in enumerate(names):
            key = loose_key(name)
            if key:
                loose_rows.append(row)
                loose_hashes.append(key_hash(key))
        return cls(
            names,
            _sorted(numpy.asarray(strict_hashes, dtype=numpy.int64), numpy.arange(len(names), dtype=numpy.int32)),
            _sorted(numpy.asarray(loose_hashes, dtype=numpy.int64), numpy.asarray(loose_rows, dtype=numpy.int32)),
        )

    def extended(self, names: Sequence[str], first_row: int) -> "ExactNameIndex":
        """RETURNS (ExactNameIndex): the look-up of `names`, whose rows before `first_row` are this one's names:
        the keys of the rows from `first_row` on are computed and merged into the sorted arrays (no exclusion
        set: the caller sets it for the new rows)."""
        if first_row != len(self.strict[0]):
            raise ValueError(f"the look-up holds {len(self.strict[0])} names, not {first_row}")
        new = ExactNameIndex.build([names[row] for row in range(first_row, len(names))])

        def merged(old: Tuple[numpy.ndarray, numpy.ndarray], add: Tuple[numpy.ndarray, numpy.ndarray]):
            hashes = numpy.concatenate([numpy.asarray(old[0], dtype=numpy.int64), add[0]])
            rows = numpy.concatenate([numpy.asarray(old[1], dtype=numpy.int32), add[1] + numpy.int32(first_row)])
            return _sorted(hashes, rows)

        return ExactNameIndex(names, merged(self.strict, new.strict), merged(self.loose, new.loose))

    def strict_rows(self, text: str) -> List[int]:
        """RETURNS (List[int]): every row whose name has the strict key of `text`, excluded rows too (the names a
        text is already, in any form the exact tier knows)."""
        key = strict_key(text)
        hashes, rows = self.strict
        value = key_hash(key)
        start, end = numpy.searchsorted(hashes, value, side="left"), numpy.searchsorted(hashes, value, side="right")
        return [int(row) for row in rows[start:end] if strict_key(self.names[int(row)]) == key]

    def lookup(self, mention: str) -> Dict[int, int]:
        """RETURNS (Dict[int, int]): row → tier of the exactly matching names: strict matches first (tier 2),
        then loose-only matches (tier 1), each in row order."""
        return self.lookup_many([mention])[0]

    def lookup_many(self, mentions: Sequence[str]) -> List[Dict[int, int]]:
        """`lookup` for each mention, with one array search per tier for all of them."""
        found: List[Dict[int, int]] = [{} for _ in mentions]
        excluded = self._excluded_rows()
        for tier, key_of, (hashes, rows) in (
            (STRICT_TIER, strict_key, self.strict),
            (LOOSE_TIER, loose_key, self.loose),
        ):
            keys = [key_of(mention) for mention in mentions]
            values = numpy.fromiter((key_hash(key) for key in keys), dtype=numpy.int64, count=len(keys))
            starts = numpy.searchsorted(hashes, values, side="left")
            ends = numpy.searchsorted(hashes, values, side="right")
            for i in numpy.flatnonzero(ends > starts):
                key = keys[i]
                if tier == LOOSE_TIER and not key:  # no letter or digit: no loose match
                    continue
                for row in rows[starts[i] : ends[i]]:
                    row = int(row)
                    if row not in found[i] and row not in excluded and key_of(self.names[row]) == key:
                        found[i][row] = tier
        return found

    def to_arrays(self) -> Dict[str, numpy.ndarray]:
        """RETURNS (Dict[str, numpy.ndarray]): the arrays `from_arrays` reads."""
        return {
            "strict_hash": self.strict[0],
            "strict_row": self.strict[1],
            "loose_hash": self.loose[0],
            "loose_row": self.loose[1],
            "key_fingerprint": numpy.asarray([key_fingerprint()], dtype=numpy.int64),
        }

    @classmethod
    def from_arrays(cls, names: Sequence[str], arrays: Dict[str, numpy.ndarray]) -> "ExactNameIndex":
        """Use saved arrays; if they were made with other key functions, compute the keys again.

        RETURNS (ExactNameIndex): the look-up.
        """
        if int(arrays["key_fingerprint"][0]) != key_fingerprint():
            return cls.build(names)
        return cls(names, (arrays["strict_hash"], arrays["strict_row"]), (arrays["loose_hash"], arrays["loose_row"]))


def _sorted(hashes: numpy.ndarray, rows: numpy.ndarray) -> Tuple[numpy.ndarray, numpy.ndarray]:
    order = numpy.argsort(hashes, kind="stable")
    return hashes[order], rows[order]


def _aligned(array: numpy.ndarray) -> numpy.ndarray:
    array = numpy.asarray(array)
    return array if array.flags.aligned else array.copy()
