"""The organism signal: prefer the entities of the organism a mention was assigned to (`organism_ranking`).

It restricts (names of entities outside a mention's allowed organisms leave the exact matches and the pool),
gives a rank key among exact matches (the assigned organism's entities first when the assignment's confidence
reaches `organism_min_confidence`) and a bonus, `organism_weight × confidence`, added to the ranking (not to
the written score) of candidates of the assigned organism. With `organism_orthologs`, a candidate of another
organism also brings its ortholog of the assigned organism: an exact match as an exact match, another name with
its score (`with_orthologs`, `organisms.orthologs`); among exact matches, a gene named so in two organisms ranks
before one named so in a single organism (`naming_organisms`).
"""

from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

import numpy

from ...organisms.orthologs import OrthologTable
from ...organisms.ranking import OrganismContext, allowed_mask, organism_match
from .base import OverExact, Pools, Queries

ORGANISM = "organism"
# Organisms counted by `naming_organisms`: "the name is this gene's in more than one organism".
SHARED_NAME_ORGANISMS = 2


class OrganismSignal:
    """The organism signal (implements `OrganismScope`; see the module docstring)."""

    name = ORGANISM

    def __init__(
        self,
        entity_taxa: Optional[numpy.ndarray],
        name_entity: numpy.ndarray,
        weight: float,
        min_confidence: float,
        orthologs: Optional[Callable[[], OrthologTable]] = None,
        over_exact_score: float = 1.0,
    ) -> None:
        self.entity_taxa = entity_taxa
        self.name_entity = name_entity
        self.weight = weight
        self.min_confidence = min_confidence
        self.orthologs = orthologs  # built on first use (None: orthologs off)
        self.over_exact_score = over_exact_score

    def _confident(self, context: Optional[OrganismContext]) -> bool:
        """Whether the set has taxa and the mention an assigned taxon with confidence ≥ `min_confidence`."""
        return (
            self.entity_taxa is not None
            and context is not None
            and context.taxon is not None
            and context.confidence >= self.min_confidence
        )

    def foreign_exact_only(self, rows: Dict[int, int], context: Optional[OrganismContext]) -> bool:
        """Whether a mention's exact matches are all of other organisms than its confidently assigned one, none with
        an ortholog there to stand in: then it is searched despite the exact short-cut, so that a close name of the
        assigned organism can rank with them (`over_exact`). Always False with `over_exact_score` 1 (off)."""
        if not rows or self.over_exact_score >= 1.0 or not self._confident(context):
            return False
        assert self.entity_taxa is not None and context is not None and context.taxon is not None
        table = self.orthologs() if self.orthologs is not None else None
        for row in rows:
            entity = int(self.name_entity[row])
            if int(self.entity_taxa[entity]) == context.taxon:
                return False
            if table is not None and table.symbol_row(entity, context.taxon) is not None:
                return False
        return True

    def over_exact(
        self,
        tiers: numpy.ndarray,
        scores: numpy.ndarray,
        confident: numpy.ndarray,
        suffixed: Optional[Callable[[numpy.ndarray], numpy.ndarray]] = None,
    ) -> "OverExact":
        """The rank tiers of a pool with the assigned organism's names among other organisms' exact matches: when no
        exact match is of the confidently assigned organism, its candidates whose name is the mention plus a member
        suffix (`suffixed`: human `ATG16L` for yeast `Atg16`, `organisms.paralog_suffix`), and those whose fused
        score reaches `over_exact_score`, take the best exact tier (the organism key then ranks them first).

        tiers (numpy.ndarray): int64 exact tier per pool name. scores: its fused score. confident: int64 1 where the
            name is of the confidently assigned organism (`match`). suffixed: given pool positions, whether each
            name is the mention plus a member suffix (read only for the assigned organism's names off the tier).
        RETURNS (OverExact): the tiers to rank by (`tiers` itself when nothing changes) and the counterparts (the
            suffixed names: the same gene as named in the assigned organism, so an exact match in all but form).
        """
        none = OverExact(tiers, numpy.zeros(len(tiers), dtype=bool))
        exact = tiers > 0
        assigned = confident.astype(bool)
        if self.over_exact_score >= 1.0 or not exact.any() or not assigned.any() or (assigned & exact).any():
            return none
        counterparts = numpy.zeros(len(tiers), dtype=bool)
        if suffixed is not None:
            others = numpy.flatnonzero(assigned & ~exact)
            if len(others):
                counterparts[others] = suffixed(others)
        close = counterparts | (assigned & ~exact & (scores >= self.over_exact_score))
        if not close.any():
            return none
        ranked = tiers.copy()
        ranked[close] = tiers.max()
        return OverExact(ranked, counterparts)

    def with_orthologs(
        self, pool: List[int], scores: numpy.ndarray, exact: Dict[int, int], context: Optional[OrganismContext]
    ) -> Tuple[List[int], numpy.ndarray, Dict[int, int]]:
        """Let the ortholog, in the assigned organism, of every candidate entity of another organism stand in for it
        (when the assignment's confidence reaches `min_confidence`): papers name a gene the same way in every
        organism, so a name of mouse Il2ra that fits `IL-2Rα` best is evidence for human IL2RA too.
        - An exact match brings its ortholog's gene-symbol row as an exact match of the same tier and kind, with
          the same score (a row already in the pool keeps its own keys, unless it matches exactly at a lower tier
          or not at all: then it takes the source's keys).
        - Another name lends its score to its ortholog's gene-symbol row: added to the pool, or, when that row
          is already a candidate with a lower score and is no exact match, its score raised to the source's.
        The organism rank key and bonus then prefer the assigned organism's entity.

        RETURNS: the pool and its scores (a new array whenever the assignment is confident enough), and the source
            name row of each added or re-keyed row.
        """
        if self.orthologs is None or not self._confident(context):
            return pool, scores, {}
        assert self.entity_taxa is not None and context is not None and context.taxon is not None  # _confident
        taxon = context.taxon
        table = self.orthologs()
        position = {row: j for j, row in enumerate(pool)}
        scores = numpy.array(scores, dtype=numpy.float32)  # a copy: a lent score raises its ortholog's row here
        sources: Dict[int, int] = {}
        best: Dict[int, Tuple[int, float]] = {}
        for j, row in enumerate(pool):
            entity = int(self.name_entity[row])
            if int(self.entity_taxa[entity]) == taxon:
                continue
            ortholog = table.symbol_row(entity, taxon)
            if ortholog is None:
                continue
            tier = exact.get(row, 0)
            score = float(scores[j])
            if ortholog in position:
                own = position[ortholog]
                if not tier and not exact.get(ortholog) and score > scores[own]:
                    scores[own] = score
                if tier <= exact.get(ortholog, 0):
                    continue
                # an exact match of a higher tier than the row's own (`Wnt-3a` matches mouse `Wnt-3a` strictly,
                # human `WNT3A` only loosely): the row takes the source's keys
            key = (tier, score)
            if ortholog not in best or key > best[ortholog]:
                best[ortholog], sources[ortholog] = key, row
        if not sources:
            return pool, scores, {}
        rows = [row for row in sources if row not in position]
        scores = numpy.concatenate([scores, numpy.asarray([best[row][1] for row in rows], dtype=numpy.float32)])
        return pool + rows, scores, sources

    def naming_organisms(self, entities: numpy.ndarray, tiers: numpy.ndarray, exact: Dict[int, int]) -> numpy.ndarray:
        """How widely the mention is a name of each exactly matching candidate's gene: the number of organisms whose
        entries of the gene (its ortholog group, `OrthologTable.group_key`) list the mention at the candidate's
        tier, capped at `SHARED_NAME_ORGANISMS`. A rank key among exact matches, before the kind priority: `PD-1`
        names Pdcd1 in human and mouse, human RPL17 only; `Nrf2` names Nfe2l2 in three organisms, GABPA in one.
        The cap keeps one organism's idiosyncratic alias from deciding, no more: `p62` names KHDRBS1 in three
        organisms and SQSTM1 in two, and the entity prior still picks SQSTM1.

        RETURNS (numpy.ndarray): int64, per candidate, the capped count (0: not an exact match; all 0 without the
            ortholog table or taxa).
        """
        counts = numpy.zeros(len(entities), dtype=numpy.int64)
        if self.orthologs is None or self.entity_taxa is None or not exact:
            return counts
        table = self.orthologs()
        naming: Dict[Tuple[int, int], Set[int]] = {}
        for row, tier in exact.items():
            entity = int(self.name_entity[row])
            naming.setdefault((table.group_key(entity), tier), set()).add(int(self.entity_taxa[entity]))
        for j in numpy.flatnonzero(tiers > 0):
            found = len(naming.get((table.group_key(int(entities[j])), int(tiers[j])), ()))
            counts[j] = min(SHARED_NAME_ORGANISMS, max(1, found))  # a stand-in of no listed source: its own
        return counts

    def allowed_rows(self, rows: Dict[int, int], context: Optional[OrganismContext]) -> Dict[int, int]:
        """The exact-match rows of entities the mention's organism restriction allows."""
        if not rows or context is None or context.allowed is None:
            return rows
        keys = numpy.fromiter(rows, dtype=numpy.int64, count=len(rows))
        mask = allowed_mask(self.entity_taxa, self.name_entity[keys].astype(numpy.int64), context)
        return rows if mask is None else {int(r): rows[int(r)] for r in keys[mask]}

    def allowed(self, entities: numpy.ndarray, context: Optional[OrganismContext]) -> Optional[numpy.ndarray]:
        """RETURNS (Optional[numpy.ndarray]): which of these entities may be linked (None: all)."""
        if context is None or self.entity_taxa is None:
            return None
        return allowed_mask(self.entity_taxa, entities, context)

    def candidates(self, queries: Queries, rows: Sequence[int], n: int) -> Optional[Pools]:
        return None

    def match(self, entities: numpy.ndarray, context: Optional[OrganismContext]) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """RETURNS: float32 confidence where an entity is of the assigned taxon, and int64 1 where the confidence
        also reaches `min_confidence` (see `organism_ranking.organism_match`)."""
        return organism_match(self.entity_taxa, entities, context, self.min_confidence)

    def scores(self, queries: Queries, pools: Pools) -> List[numpy.ndarray]:
        """RETURNS: per mention, the organism bonus of each pool name (before its weight)."""
        return [
            self.match(self.name_entity[numpy.asarray(pool, dtype=numpy.int64)].astype(numpy.int64), context)[0]
            for pool, context in zip(pools, queries.contexts)
        ]
