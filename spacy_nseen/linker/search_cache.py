"""The organism-independent part of linking a mention, kept per mention string: its pool of candidate names and
their fused scores (`Fusion.link`).

A mention's search (encoder vector, Annoy neighbours, TF-IDF candidates, the signals' scores of the pool) reads its
text, its exact matches and whether it is searched; the organism context only restricts the exact matches and decides
the exact short-cut before it, and ranks the pool after it. So one search serves the mention under every organism
context that leaves it the same exact matches and the same short-cut: in an article, the same name with another
organism confidence is ranked again, not searched again. The key says all the search reads (`SearchKey`).
"""

from collections import OrderedDict
from typing import Dict, List, NamedTuple, Optional, Tuple

import numpy

# Searches kept per fusion: a pool of ~100 names as int32 rows and float32 scores is about 1 KB, so the cache
# stays under ~10 MB per reference set.
SEARCH_CACHE_SIZE = 10_000
# Longer mention strings are searched each time (as `kb_linker.MAX_CACHED_LENGTH` for the linker's results).
MAX_SEARCHED_LENGTH = 256


class SearchKey(NamedTuple):
    """All a search reads of one mention: as written, in its query form, whether it is searched (not answered by the
    exact short-cut) and its exact matches (name row → tier, in order) after the organism restriction."""

    written: str
    text: str
    searched: bool
    exact: Tuple[Tuple[int, int], ...]


class SearchedPool(NamedTuple):
    """A mention's pool of candidate name rows (signals' candidates, then its exact matches) and their fused scores
    (before the organism signal). Read-only: both arrays are shared by every context of the mention."""

    rows: numpy.ndarray
    scores: numpy.ndarray

    @classmethod
    def of(cls, pool: List[int], scores: numpy.ndarray) -> "SearchedPool":
        """RETURNS (SearchedPool): a pool and its scores, stored compactly and made read-only."""
        rows = numpy.asarray(pool, dtype=numpy.int64)
        if len(rows) and int(rows.max()) < 2**31:
            rows = rows.astype(numpy.int32)
        values = numpy.array(scores, dtype=numpy.float32)
        rows.setflags(write=False)
        values.setflags(write=False)
        return cls(rows, values)

    def pool(self) -> List[int]:
        """RETURNS (List[int]): the name rows as a new list."""
        return self.rows.tolist()


def search_key(written: str, text: str, searched: bool, exact: Dict[int, int]) -> SearchKey:
    """RETURNS (SearchKey): the key of one mention's search."""
    return SearchKey(written, text, searched, tuple(exact.items()))


class SearchCache:
    """The searches of the last `size` mentions (least recently used dropped; 0: nothing kept).

    size (int): how many searches are kept.
    """

    def __init__(self, size: int = SEARCH_CACHE_SIZE) -> None:
        self.size = size
        self._found: OrderedDict[SearchKey, SearchedPool] = OrderedDict()

    def __len__(self) -> int:
        return len(self._found)

    def get(self, key: SearchKey) -> Optional[SearchedPool]:
        """RETURNS (Optional[SearchedPool]): the search of the key, if kept."""
        found = self._found.get(key)
        if found is not None:
            self._found.move_to_end(key)
        return found

    def put(self, key: SearchKey, found: SearchedPool) -> None:
        """Keep a search (not for mentions longer than `MAX_SEARCHED_LENGTH`)."""
        if self.size <= 0 or len(key.written) > MAX_SEARCHED_LENGTH or len(key.text) > MAX_SEARCHED_LENGTH:
            return
        self._found[key] = found
        self._found.move_to_end(key)
        if len(self._found) > self.size:
            self._found.popitem(last=False)

    def clear(self) -> None:
        """Forget every search."""
        self._found.clear()
