"""The order of one mention's names and entities: rank keys, one class each, that `Fusion.collapse` loops over.

Each entity keeps its best name, and the entities rank, by the keys compared most significant first (`RANK_KEYS`):
ranked with the exact matches (the organism-aware exact tier), the assigned organism among them, how many organisms
name the gene so, the name-kind class, the mention a word of a longer name, the kind priority of an exact match,
the entity prior, and last the fused score plus the organism bonus. A key gives one value per pool name, higher
first. What several keys read (the exact tier's keys, the organism match, the over-exact tiers) is read once per
pool (`PoolNames`). A new ordering evidence is a new `RankKey` in the list, not a new code path.
"""

from typing import Dict, List, Optional, Protocol, Sequence

import numpy

from ..organisms.paralog_suffix import member_suffixed
from ..organisms.ranking import OrganismContext
from ..reference.reference_set import ReferenceSet
from ..text.lines import strings_at
from .exact_ranking import kind_classes
from .signals.base import OrganismScope, OverExact
from .signals.exact import ExactKeys, ExactTier


class PoolNames:
    """The names of one mention's pool being ranked, and what the keys read of them (each read once).

    rows (numpy.ndarray): int64 name rows. scores (numpy.ndarray): float32 fused scores. entities: int64 entity of
    each name. exact: name row → exact tier of the mention's exact matches. context: its organism evidence.
    mention (str): the mention as written (read by the name-words key).
    """

    def __init__(
        self,
        rows: numpy.ndarray,
        scores: numpy.ndarray,
        entities: numpy.ndarray,
        pool: List[int],
        exact: Dict[int, int],
        context: Optional[OrganismContext],
        mention: str,
        *,
        exact_tier: Optional[ExactTier],
        organism: OrganismScope,
        reference: ReferenceSet,
        stand_ins: Dict[int, int],
    ) -> None:
        self.rows, self.scores, self.entities, self.pool = rows, scores, entities, pool
        self.exact, self.context, self.mention = exact, context, mention
        self.exact_tier, self.organism, self.reference, self.stand_ins = exact_tier, organism, reference, stand_ins
        self._exact_keys: Optional[ExactKeys] = None
        self._match: Optional[Sequence[numpy.ndarray]] = None
        self._over_exact: Optional[OverExact] = None

    def exact_keys(self) -> ExactKeys:
        """RETURNS (ExactKeys): the exact tier's keys of the names (all 0 without an exact tier)."""
        if self._exact_keys is None:
            if self.exact_tier is not None:
                # an ortholog stands in with its source's keys
                keyed = [self.stand_ins.get(row, row) for row in self.pool] if self.stand_ins else self.pool
                self._exact_keys = self.exact_tier.keys(keyed, self.exact, self.entities, self.mention)
            else:
                zeros = numpy.zeros(len(self.rows), dtype=numpy.int64)
                self._exact_keys = ExactKeys(zeros, zeros, zeros, numpy.zeros(len(self.rows), dtype=numpy.float64))
        return self._exact_keys

    def organism_match(self) -> Sequence[numpy.ndarray]:
        """RETURNS: the organism bonus (float32) and confident match (int64) of each name (`OrganismScope.match`)."""
        if self._match is None:
            self._match = self.organism.match(self.entities, self.context)
        return self._match

    def over_exact(self) -> OverExact:
        """RETURNS (OverExact): the exact tiers with the assigned organism's close names among other organisms'
        exact matches (`OrganismScope.over_exact`), and which names are counterparts of the mention."""
        if self._over_exact is None:
            names, rows, mention = self.reference.names, self.rows, self.mention
            self._over_exact = self.organism.over_exact(
                self.exact_keys().tiers,
                self.scores,
                self.organism_match()[1],
                lambda at: member_suffixed(mention, strings_at(names, rows[at].tolist())),
            )
        return self._over_exact


class RankKey(Protocol):
    """One key of the order of a pool's names and entities: a value per name, higher ranks first."""

    def values(self, names: PoolNames) -> numpy.ndarray: ...


class ExactTierKey:
    """Exact matches first (strict before loose keys), with the assigned organism's close names among other
    organisms' exact matches (`OrganismScope.over_exact`)."""

    def values(self, names: PoolNames) -> numpy.ndarray:
        return names.over_exact().tiers


class AssignedOrganismKey:
    """Among the exact tier, the names of the confidently assigned organism first."""

    def values(self, names: PoolNames) -> numpy.ndarray:
        return names.organism_match()[1] * (names.over_exact().tiers > 0)


class NamingOrganismsKey:
    """Among exact matches, the gene that more organisms name so (`OrganismScope.naming_organisms`)."""

    def values(self, names: PoolNames) -> numpy.ndarray:
        return names.organism.naming_organisms(names.entities, names.exact_keys().tiers, names.exact)


class KindClassKey:
    """The class of the name's kind (`exact_ranking.kind_classes`)."""

    def values(self, names: PoolNames) -> numpy.ndarray:
        return kind_classes(names.exact_keys().kinds)


class NameWordsKey:
    """The entity of which the mention is a word of a longer name (`NameWords.longer_name_entities`)."""

    def values(self, names: PoolNames) -> numpy.ndarray:
        return names.exact_keys().words


class KindPriorityKey:
    """The kind priority of an exact match (`exact_ranking`)."""

    def values(self, names: PoolNames) -> numpy.ndarray:
        return names.exact_keys().kinds


class EntityPriorKey:
    """The entity prior of `exact_tie_break` (more names, or a given per-entity value)."""

    def values(self, names: PoolNames) -> numpy.ndarray:
        return names.exact_keys().priors


class ScoreKey:
    """The fused score, plus the organism bonus times its weight."""

    def values(self, names: PoolNames) -> numpy.ndarray:
        return names.scores + numpy.float32(names.organism.weight) * names.organism_match()[0]


# Most significant first.
RANK_KEYS: Sequence[RankKey] = (
    ExactTierKey(),
    AssignedOrganismKey(),
    NamingOrganismsKey(),
    KindClassKey(),
    NameWordsKey(),
    KindPriorityKey(),
    EntityPriorKey(),
    ScoreKey(),
)


def rank_order(names: PoolNames, keys: Sequence[RankKey] = RANK_KEYS) -> List[numpy.ndarray]:
    """RETURNS (List[numpy.ndarray]): the keys' values negated, least significant first (for `numpy.lexsort`)."""
    return [-key.values(names) for key in reversed(keys)]
