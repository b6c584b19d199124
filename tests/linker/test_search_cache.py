"""The organism-independent searches kept per mention (`linker.search_cache`), and how the fusion uses them: one
search per mention string, ranked again under each organism context, with the results of a fresh search."""
import numpy
import pytest
from thinc.api import Model

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.linker.search_cache import (
    MAX_SEARCHED_LENGTH,
    SearchCache,
    SearchedPool,
    search_key,
)
from spacy_nseen.linker.settings import LinkerSettings
from spacy_nseen.organisms.ranking import OrganismContext
from spacy_nseen.reference.reference_set import ReferenceSet

HUMAN, MOUSE = 9606, 10090
ROWS = [
    ("UniProt:Q9Y4P1", "Autophagy-related protein 4B", "recommended"),
    ("UniProt:Q9Y4P1", "ATG4B", "gene_primary"),
    ("UniProt:Q8BGE6", "Cysteine protease ATG4B", "recommended"),
    ("UniProt:Q8BGE6", "Atg4b", "gene_primary"),
    ("UniProt:Q9H1Y0", "Autophagy protein 5", "recommended"),
    ("UniProt:Q9H1Y0", "ATG5", "gene_primary"),
    ("UniProt:Q99J83", "Autophagy protein 5", "recommended"),
    ("UniProt:Q99J83", "Atg5", "gene_primary"),
]
TAXA = {"UniProt:Q9Y4P1": HUMAN, "UniProt:Q9H1Y0": HUMAN, "UniProt:Q8BGE6": MOUSE, "UniProt:Q99J83": MOUSE}
MENTIONS = ["Atg4", "autophagy protein", "ATG5", "Atg5"]
CONTEXTS = [None, OrganismContext(HUMAN, 0.9), OrganismContext(MOUSE, 0.9), OrganismContext(MOUSE, 0.2),
            OrganismContext(MOUSE, 0.9, frozenset({HUMAN}))]


@pytest.fixture()
def linker(toy_encoder: Model) -> KnowledgeBaseLinker:
    return KnowledgeBaseLinker.build("uniprot", toy_encoder, ReferenceSet.from_rows(ROWS, TAXA), n_trees=5, seed=0)


def test_a_pool_is_stored_read_only_and_compact() -> None:
    pool = SearchedPool.of([3, 1, 2], numpy.asarray([0.5, 0.25, 0.125], dtype=numpy.float64))
    assert pool.pool() == [3, 1, 2] and pool.rows.dtype == numpy.int32 and pool.scores.dtype == numpy.float32
    with pytest.raises(ValueError):
        pool.scores[0] = 1.0
    assert SearchedPool.of([], numpy.zeros(0)).pool() == []


def test_the_cache_keeps_the_last_searches_and_not_long_mentions() -> None:
    cache = SearchCache(size=2)
    pool = SearchedPool.of([1], numpy.ones(1))
    keys = [search_key(m, m, True, {}) for m in ("a", "b", "c")]
    for key in keys:
        cache.put(key, pool)
    assert len(cache) == 2 and cache.get(keys[0]) is None and cache.get(keys[2]) is pool
    long = "x" * (MAX_SEARCHED_LENGTH + 1)
    cache.put(search_key(long, long, True, {}), pool)
    assert cache.get(search_key(long, long, True, {})) is None
    cache.clear()
    assert len(cache) == 0
    off = SearchCache(size=0)
    off.put(keys[0], pool)
    assert len(off) == 0


def test_the_key_holds_what_the_search_reads() -> None:
    assert search_key("Atg5", "atg5", True, {1: 2}) != search_key("Atg5", "atg5", False, {1: 2})
    assert search_key("Atg5", "atg5", True, {1: 2}) != search_key("Atg5", "atg5", True, {1: 2, 3: 2})
    assert search_key("Atg5", "atg5", True, {1: 2}) == search_key("Atg5", "atg5", True, {1: 2})


def test_each_context_gets_the_results_of_a_fresh_search(linker: KnowledgeBaseLinker, toy_encoder: Model) -> None:
    fresh = KnowledgeBaseLinker.build("uniprot", toy_encoder, linker.reference_set, n_trees=5, seed=0)
    for context in CONTEXTS:
        cached = linker.link(MENTIONS, top_k=3, organisms=[context] * len(MENTIONS))
        fresh.settings = LinkerSettings(cache_size=0)  # no cache at all: every mention searched again
        assert cached == fresh.link(MENTIONS, top_k=3, organisms=[context] * len(MENTIONS))


def test_a_mention_is_searched_once_under_many_contexts(linker: KnowledgeBaseLinker, monkeypatch) -> None:
    searched = []
    fusion = linker.fusion()
    search = fusion.search
    monkeypatch.setattr(fusion, "search", lambda queries: searched.extend(queries.texts) or search(queries))
    confidences = [0.31, 0.42, 0.53, 0.64]
    linker.link(["autophagy protein"] * 4, top_k=2, organisms=[OrganismContext(MOUSE, c) for c in confidences])
    linker.link(["autophagy protein"], top_k=2, organisms=[OrganismContext(HUMAN, 0.77)])
    assert searched == ["autophagy protein"]
    fusion.exact.name_words._answers[(0, "x")] = True
    linker.clear_cache()  # the linker's cache, the searches and the name-words answers
    assert not fusion.exact.name_words._answers
    linker.link(["autophagy protein"], top_k=2, organisms=[OrganismContext(HUMAN, 0.77)])
    assert searched == ["autophagy protein"] * 2


def test_no_cache_size_means_no_searches_kept(linker: KnowledgeBaseLinker) -> None:
    linker.settings = LinkerSettings(cache_size=0)
    linker.link(MENTIONS, top_k=2, organisms=[OrganismContext(MOUSE, 0.5)] * len(MENTIONS))
    assert len(linker.fusion().searches) == 0
