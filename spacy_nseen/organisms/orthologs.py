"""Orthologs in a multi-organism reference set, found by their shared gene symbol.

Papers name a protein the same way in every organism: a caption about human cells may write `Beclin1`, a name
only rat's entry lists, while the human entry lists `Beclin-1`. When a candidate of a mention is an entity of
another organism, the linker also offers that entity's ortholog in the organism the mention was assigned to:
an exact match as an exact match of the same tier, another name with the same score
(`OrganismSignal.with_orthologs`); the organism rank key and bonus then pick it.

Two entries are orthologs when their primary gene names (`gene_primary`) are equal ignoring case (`BECN1`,
`Becn1`), and each is the only entry of its organism with that symbol.
"""

from typing import Dict, Optional, Tuple

import numpy

from ..reference.reference_set import ReferenceSet

GENE_SYMBOL_KIND = "gene_primary"


class OrthologTable:
    """Entity → the name row of its ortholog's gene symbol in another organism."""

    def __init__(self, reference_set: ReferenceSet) -> None:
        taxa = reference_set.entity_taxa
        self._group = numpy.full(reference_set.n_entities, -1, dtype=numpy.int64)
        self._rows: Dict[Tuple[int, int], int] = {}
        if taxa is None:
            return
        groups: Dict[str, int] = {}
        seen: Dict[Tuple[int, int], int] = {}
        for row, kind in enumerate(reference_set.kinds):
            if kind != GENE_SYMBOL_KIND:
                continue
            entity = int(reference_set.name_entity[row])
            if self._group[entity] >= 0:
                continue  # an entity's first gene symbol names it
            group = groups.setdefault(reference_set.names[row].upper(), len(groups))
            self._group[entity] = group
            key = (group, int(taxa[entity]))
            seen[key] = seen.get(key, 0) + 1
            self._rows[key] = row
        for key, count in seen.items():
            if count > 1:  # two entries of one organism share the symbol: no ortholog
                del self._rows[key]

    def pooled_max(self, values: numpy.ndarray) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): per entity, the largest of `values` over its ortholog group (entities with the
        same gene symbol in any organism); an entity without a gene symbol keeps its own value."""
        values = numpy.asarray(values, dtype=numpy.float64)
        grouped = self._group >= 0
        if not grouped.any():
            return values.copy()
        best = numpy.full(int(self._group.max()) + 1, -numpy.inf)
        numpy.maximum.at(best, self._group[grouped], values[grouped])
        pooled = values.copy()
        pooled[grouped] = best[self._group[grouped]]
        return pooled

    def group_key(self, entity: int) -> int:
        """RETURNS (int): the entity's ortholog group (≥ 0, one per gene symbol), or a key of its own (< 0) for an
        entity without a gene symbol."""
        group = int(self._group[entity])
        return group if group >= 0 else -1 - entity

    def symbol_row(self, entity: int, taxon: int) -> Optional[int]:
        """RETURNS (Optional[int]): the gene-symbol name row of `entity`'s ortholog in `taxon`, or None."""
        group = int(self._group[entity])
        return self._rows.get((group, taxon)) if group >= 0 else None
