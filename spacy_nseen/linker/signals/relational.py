"""The relational-name signal: an entity with a name that is the mention plus a relational head (`Lc3 synthase`
for `LC3`, see `text.relational_names`) is another molecule, so the fused score of its names in the pool (all of
them: `Lc(3)Cer synthase` too) is lowered by `relational_penalty`.

It neither searches nor weighs: it subtracts from the scores of the other signals (hybrid mode only; 0 = off).
"""

from typing import List, Optional, Sequence

import numpy

from ...text.relational_names import leading_word, relational_extension
from .base import Pools, Queries, pool_names

RELATIONAL = "relational"


class RelationalNameSignal:
    name = RELATIONAL

    def __init__(self, names: Sequence[str], name_entity: numpy.ndarray, penalty: float) -> None:
        self.names = names
        self.name_entity = name_entity
        self.penalty = penalty

    @classmethod
    def from_linker(cls, linker, settings, mode: str) -> Optional["RelationalNameSignal"]:
        """RETURNS: the signal, or None in dense mode or with `relational_penalty` 0."""
        if mode != "hybrid" or settings.relational_penalty <= 0.0:
            return None
        reference = linker.reference_set
        return cls(reference.names, reference.name_entity, settings.relational_penalty)

    def penalties(self, queries: Queries, pools: Pools) -> List[numpy.ndarray]:
        """RETURNS (List[numpy.ndarray]): per mention, `relational_penalty` for each pool name whose entity has a pool
        name that is a relational extension of the mention (as the other signals read it), else 0."""
        names = pool_names(queries, self.names, pools)
        out = []
        for text, pool in zip(queries.texts, pools):
            values = numpy.zeros(len(pool), dtype=numpy.float32)
            n, lead = len(text), leading_word(text)
            k = len(lead)
            # cheap test first: the name is longer and starts with the mention's first word (any case; the words
            # after it may be joined by other separators: `NF kB inhibitor` for `NF-kB`)
            related = [
                j
                for j, row in enumerate(pool)
                if len(name := names[row]) > n and name[:k].casefold() == lead and relational_extension(text, name)
            ]
            if related:
                entities = self.name_entity[numpy.asarray(pool, dtype=numpy.int64)]
                values[numpy.isin(entities, entities[related])] = self.penalty
            out.append(values)
        return out
