"""The protocol every signal of the fusion follows, and the batch of queries they read.

A signal is one source of evidence about which reference names fit a mention. It answers two questions:
- `candidates(queries, rows, n)`: its best names for some mentions (the pool of candidates is the union of the
  signals' candidates, in the order of the fusion's list), or None if it only scores;
- `scores(queries, pools)`: its score of every name of each mention's pool.
A *scoring* signal (word TF-IDF, character TF-IDF, fuzzy) is weighted by one setting (`weight_setting`) and
registered with `@scoring_signal`; the dense signal gets the rest of the weight (1 − the others). The exact tier
and the organism signal give rank keys before the score, and the relational-name signal (`signals.relational`)
subtracts a penalty from it (see `fusion`). Signals that read the pool's names share one read (`pool_names`).
A *decision* stage (the NIL decision, `signals.nil`) reads the ranked result: `probabilities(queries, results)`
is its probability that each mention's best entity is right; it is switched by one setting (`setting`) and
registered with `@decision_stage`. The fusion is signals → ranking → decision (`Fusion.verdicts`).
"""

from typing import Any, Callable, Dict, List, NamedTuple, Optional, Protocol, Sequence, Tuple, Type, runtime_checkable

import numpy

from ...organisms.ranking import OrganismContext
from ...text.lines import strings_at
from ..candidate import Candidate

Pools = List[List[int]]


class Queries:
    """One batch of distinct mentions, as the signals see it.

    written (List[str]): the mentions as written (the exact match reads these).
    texts (List[str]): the mentions in the configured query form (the other signals read these).
    contexts (List[Optional[OrganismContext]]): per mention, its organism evidence.
    exact (List[Dict[int, int]]): per mention, its exactly matching name rows → tier (set by the exact signal).
    searched (List[int]): the mentions that are searched (not answered by the exact short-cut).
    cache (Dict[str, Any]): per signal, its representation of the queries (vectors, TF-IDF rows), made once; and
        `pool_names`, the reference names of the pool rows read so far (`pool_names`).
    """

    def __init__(
        self, written: Sequence[str], texts: Sequence[str], contexts: Sequence[Optional[OrganismContext]]
    ) -> None:
        self.written = list(written)
        self.texts = list(texts)
        self.contexts = list(contexts)
        self.exact: List[Dict[int, int]] = [{} for _ in self.texts]
        self.searched: List[int] = list(range(len(self.texts)))
        self.cache: Dict[str, Any] = {}

    def __len__(self) -> int:
        return len(self.texts)


def pool_names(queries: Queries, names: Sequence[str], pools: Pools) -> Dict[int, str]:
    """RETURNS (Dict[int, str]): name row → reference name, for every row of the pools; each row is read once per
    batch (kept in `queries.cache`, so the signals that read names share one read)."""
    known: Dict[int, str] = queries.cache.setdefault("pool_names", {})
    missing = list({row for pool in pools for row in pool if row not in known})
    if missing:
        known.update(zip(missing, strings_at(names, missing)))
    return known


@runtime_checkable
class Signal(Protocol):
    """One source of evidence of the fusion."""

    name: str

    def candidates(self, queries: Queries, rows: Sequence[int], n: int) -> Optional[Pools]:
        """RETURNS (Optional[Pools]): per row of `rows`, its best name rows (best first), or None."""

    def scores(self, queries: Queries, pools: Pools) -> List[numpy.ndarray]:
        """RETURNS (List[numpy.ndarray]): per mention, the float32 score of each name of its pool."""


class ScoringSignal(Signal, Protocol):
    """A signal of the weighted sum (registered with `scoring_signal`)."""

    pool_order: int  # where its candidates join the pool


class OverExact(NamedTuple):
    """What `OrganismScope.over_exact` gives a pool: the tiers to rank by, and which names are counterparts (the
    mention plus a member suffix in the assigned organism: written with the score of an exact match)."""

    tiers: numpy.ndarray
    counterparts: numpy.ndarray


@runtime_checkable
class OrganismScope(Signal, Protocol):
    """The organism part of the fusion (`signals.organism.OrganismSignal`): which names a mention may link to, how
    other organisms' entities stand in through their orthologs, and its rank keys. Beside `scores` (its bonus),
    the fusion and the rank keys read it through these methods only."""

    weight: float

    def allowed_rows(self, rows: Dict[int, int], context: Optional[OrganismContext]) -> Dict[int, int]:
        """The exact-match rows (name row → tier) of entities the mention's organism restriction allows."""

    def allowed(self, entities: numpy.ndarray, context: Optional[OrganismContext]) -> Optional[numpy.ndarray]:
        """RETURNS: which of these entities may be linked (None: all)."""

    def foreign_exact_only(self, rows: Dict[int, int], context: Optional[OrganismContext]) -> bool:
        """RETURNS: whether every exact match is of another organism than the confidently assigned one."""

    def with_orthologs(
        self, pool: List[int], scores: numpy.ndarray, exact: Dict[int, int], context: Optional[OrganismContext]
    ) -> Tuple[List[int], numpy.ndarray, Dict[int, int]]:
        """RETURNS: the pool with the assigned organism's orthologs standing in, their scores, and their sources."""

    def match(self, entities: numpy.ndarray, context: Optional[OrganismContext]) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """RETURNS: the organism bonus (float32) and confident match (int64) of each entity."""

    def naming_organisms(self, entities: numpy.ndarray, tiers: numpy.ndarray, exact: Dict[int, int]) -> numpy.ndarray:
        """RETURNS: per candidate, in how many organisms (capped) the mention names its gene."""

    def over_exact(
        self,
        tiers: numpy.ndarray,
        scores: numpy.ndarray,
        confident: numpy.ndarray,
        suffixed: Optional[Callable[[numpy.ndarray], numpy.ndarray]] = None,
    ) -> OverExact:
        """RETURNS: the tiers with the assigned organism's close names among other organisms' exact matches."""


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


class Verdict(NamedTuple):
    """The decision on one linked mention.

    probability (Optional[float]): the decision stage's probability that the best entity is right (None: no stage).
    score (Optional[float]): the link's score: the probability, else the best candidate's score (None: no candidate).
    keep (bool): whether the best entity is linked (it has a score reaching the threshold).
    """

    probability: Optional[float]
    score: Optional[float]
    keep: bool


def verdict(candidates: Sequence[Candidate], probability: Optional[float], threshold: float) -> Verdict:
    """RETURNS (Verdict): keep the best candidate when its score (the probability, if any) reaches `threshold`."""
    score = probability if probability is not None else (candidates[0].score if candidates else None)
    return Verdict(probability, score, bool(candidates) and score is not None and score >= threshold)


@runtime_checkable
class Decision(Protocol):
    """The last stage of the fusion: whether each mention's best entity is right."""

    name: str

    def probabilities(self, queries: Queries, results: Sequence[Sequence[Candidate]]) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): per mention, the probability that its best candidate is right (0 without one)."""


# The decision stages, the first available one decides: registered by their modules.
DECISIONS: List[Type] = []


def decision_stage(cls: Type) -> Type:
    """Register a decision stage class: it has `name`, `setting` (the `LinkerSettings` field that switches it),
    `from_linker(linker, settings, mode) -> Optional[stage]` (None when the linker lacks its model or the setting
    is off) and `probabilities(queries, results)`."""
    for attribute in ("name", "setting", "from_linker", "probabilities"):
        if not hasattr(cls, attribute):
            raise TypeError(f"decision stage {cls.__name__} lacks '{attribute}'")
    DECISIONS.append(cls)
    return cls
