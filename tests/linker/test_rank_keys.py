"""The rank keys `Fusion.collapse` loops over: each gives a value per pool name; a new key reorders the entities
without another code path."""
import numpy

from spacy_nseen.linker.rank_keys import RANK_KEYS, PoolNames, RankKey


class PreferEntity:
    """A test key: one entity's names before all others."""

    def __init__(self, entity: int) -> None:
        self.entity = entity

    def values(self, names: PoolNames) -> numpy.ndarray:
        return (names.entities == self.entity).astype(numpy.int64)


def test_a_key_put_first_decides_first(fresh_toy_linker):
    linker = fresh_toy_linker
    before = linker.link(["GTPase"], top_k=3)[0]
    assert len(before) == 3
    last = linker.reference_set.entity_index(before[-1].kb_id)
    fusion = linker.fusion("hybrid")
    key: RankKey = PreferEntity(last)
    fusion.rank_keys = (key,) + tuple(RANK_KEYS)
    linker.clear_cache()
    after = linker.link(["GTPase"], top_k=3)[0]
    assert after[0].kb_id == before[-1].kb_id and {c.kb_id for c in after} == {c.kb_id for c in before}
    fusion.rank_keys = RANK_KEYS
    linker.clear_cache()
    assert linker.link(["GTPase"], top_k=3)[0] == before


def test_every_key_gives_one_value_per_pool_name(fresh_toy_linker):
    linker = fresh_toy_linker
    fusion = linker.fusion("hybrid")
    rows = numpy.arange(6, dtype=numpy.int64)
    entities = linker.reference_set.name_entity[rows].astype(numpy.int64)
    names = PoolNames(rows, numpy.linspace(0.1, 0.6, 6).astype(numpy.float32), entities, rows.tolist(), {0: 2}, None,
                      "FOXP2", exact_tier=fusion.exact, organism=fusion.organism, reference=linker.reference_set,
                      stand_ins={})
    for key in RANK_KEYS:
        assert key.values(names).shape == (6,), type(key).__name__
    assert names.exact_keys().tiers.tolist() == [2, 0, 0, 0, 0, 0]
