"""The organism signal of the linker: prefer the entities of the organism a mention was assigned to.

A multi-organism reference set carries one NCBI taxon id per entity (`ReferenceSet.entity_taxa`). For each
mention the caller may give an `OrganismContext`: the assigned taxon with a confidence in [0, 1], and the taxa
linking is restricted to. The linker then
- drops the names of entities outside `allowed` (before the exact short-cut, so a restricted mention that
  only matches other organisms is searched);
- among exact matches of the same tier, ranks the assigned organism's entities first when the confidence
  reaches `LinkerSettings.organism_min_confidence` (orthologs share names: `Cdc42`, `p53`);
- adds `organism_weight · confidence` to the score of every other candidate of the assigned organism, so a
  clearly better name of another organism still wins.
"""

from dataclasses import dataclass
from typing import FrozenSet, Optional, Tuple

import numpy


@dataclass(frozen=True)
class OrganismContext:
    """The organism evidence of one mention (hashable: it is part of the linker's cache key).

    taxon (Optional[int]): the assigned NCBI taxon id, or None (no evidence).
    confidence (float): how sure the assignment is, in [0, 1].
    allowed (Optional[FrozenSet[int]]): link only to entities of these taxa (None: any).
    """

    taxon: Optional[int] = None
    confidence: float = 0.0
    allowed: Optional[FrozenSet[int]] = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be in [0, 1], got {self.confidence}")


def allowed_mask(
    entity_taxa: Optional[numpy.ndarray], entities: numpy.ndarray, context: Optional[OrganismContext]
) -> Optional[numpy.ndarray]:
    """RETURNS (Optional[numpy.ndarray]): bool, which of these entities may be linked (None: all of them)."""
    if context is None or context.allowed is None or entity_taxa is None:
        return None
    return numpy.isin(entity_taxa[entities], numpy.fromiter(context.allowed, dtype=numpy.int64))


def organism_match(
    entity_taxa: Optional[numpy.ndarray],
    entities: numpy.ndarray,
    context: Optional[OrganismContext],
    min_confidence: float,
) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The organism signal of a pool of candidate entities.

    RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): float32 `confidence` where an entity is of the assigned
        taxon (0 elsewhere), and int64 1 where it is and the confidence reaches `min_confidence` (the rank
        key among exact matches).
    """
    if context is None or context.taxon is None or entity_taxa is None or not len(entities):
        zeros = numpy.zeros(len(entities), dtype=numpy.float32)
        return zeros, zeros.astype(numpy.int64)
    match = entity_taxa[entities] == context.taxon
    bonus = match.astype(numpy.float32) * numpy.float32(context.confidence)
    confident = (match & (context.confidence >= min_confidence)).astype(numpy.int64)
    return bonus, confident
