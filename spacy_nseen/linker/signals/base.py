"""The protocol every signal of the fusion follows, and the batch of queries they read.

A signal is one source of evidence about which reference names fit a mention. It answers two questions:
- `candidates(queries, rows, n)`: its best names for some mentions (the pool of candidates is the union of the
  signals' candidates, in the order of the fusion's list), or None if it only scores;
- `scores(queries, pools)`: its score of every name of each mention's pool.
A *scoring* signal (word TF-IDF, character TF-IDF, fuzzy) is weighted by one setting (`weight_setting`) and
registered with `@scoring_signal`; the dense signal gets the rest of the weight (1 − the others). The exact tier
and the organism signal give rank keys before the score (see `fusion`); the NIL decision reads the result.
"""
from typing import Any, Callable, ClassVar, Dict, List, Optional, Protocol, Sequence, Tuple, Type, runtime_checkable

import numpy

from ...organisms.ranking import OrganismContext

Pools = List[List[int]]


class Queries:
    """One batch of distinct mentions, as the signals see it.

    written (List[str]): the mentions as written (the exact match reads these).
    texts (List[str]): the mentions in the configured query form (the other signals read these).
    contexts (List[Optional[OrganismContext]]): per mention, its organism evidence.
    exact (List[Dict[int, int]]): per mention, its exactly matching name rows → tier (set by the exact signal).
    searched (List[int]): the mentions that are searched (not answered by the exact short-cut).
    cache (Dict[str, Any]): per signal, its representation of the queries (vectors, TF-IDF rows), made once.
    """

    def __init__(self, written: Sequence[str], texts: Sequence[str], contexts: Sequence[Optional[OrganismContext]]) -> None:
        self.written = list(written)
        self.texts = list(texts)
        self.contexts = list(contexts)
        self.exact: List[Dict[int, int]] = [{} for _ in self.texts]
        self.searched: List[int] = list(range(len(self.texts)))
        self.cache: Dict[str, Any] = {}

    def __len__(self) -> int:
        return len(self.texts)


@runtime_checkable
class Signal(Protocol):
    """One source of evidence of the fusion."""

    name: str

    def candidates(self, queries: Queries, rows: Sequence[int], n: int) -> Optional[Pools]:
        """RETURNS (Optional[Pools]): per row of `rows`, its best name rows (best first), or None."""

    def scores(self, queries: Queries, pools: Pools) -> List[numpy.ndarray]:
        """RETURNS (List[numpy.ndarray]): per mention, the float32 score of each name of its pool."""


@runtime_checkable
class RareTermSignal(Signal, Protocol):
    """A scoring signal with a cheap search over its rare terms only (what `exact_fill` uses)."""

    def rare_candidates(self, queries: Queries, rows: Sequence[int], n: int, max_df: float) -> Tuple[Pools, List[numpy.ndarray]]:
        """RETURNS: per row, the names sharing its rare terms (best first), and their scores over those terms."""


# The scoring signals, in the order of the weighted sum: registered by their modules (see `signals/__init__`).
SCORING_SIGNALS: List[Type] = []


def scoring_signal(cls: Type) -> Type:
    """Register a scoring signal class: it has `name`, `weight_setting` (a `LinkerSettings` field), `pool_order`
    (where its candidates join the pool) and
    `from_linker(linker, settings, mode) -> Optional[signal]` (None when the linker lacks its index or the weight
    is 0)."""
    for attribute in ("name", "weight_setting", "pool_order", "from_linker", "candidates", "scores"):
        if not hasattr(cls, attribute):
            raise TypeError(f"scoring signal {cls.__name__} lacks '{attribute}'")
    SCORING_SIGNALS.append(cls)
    return cls
