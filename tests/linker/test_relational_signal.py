"""The relational-name signal lowers every pool name of an entity named "<mention> <relational head>"."""
import numpy
import pytest

from spacy_nseen.linker.fusion import Fusion
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker, LinkerSettings
from spacy_nseen.linker.signals import Queries
from spacy_nseen.linker.signals.relational import RelationalNameSignal
from spacy_nseen.reference.reference_set import ReferenceSet

ROWS = [
    ("UniProt:Q9BYG0", "Lc3 synthase", "alternative"),
    ("UniProt:Q9BYG0", "Lc(3)Cer synthase", "alternative"),
    ("UniProt:Q9BYG0", "B3GNT5", "gene_primary"),
    ("UniProt:Q9BXW4", "Autophagy-related protein LC3 C", "recommended"),
    ("UniProt:Q9BXW4", "MAP1LC3C", "gene_primary"),
    ("UniProt:P00533", "EGF receptor", "alternative"),
]


@pytest.fixture(scope="module")
def lc3_linker(toy_encoder) -> KnowledgeBaseLinker:
    return KnowledgeBaseLinker.build("uniprot", toy_encoder, ReferenceSet.from_rows(ROWS), n_trees=5)


def test_penalties_cover_every_pool_name_of_the_related_entity():
    reference = ReferenceSet.from_rows(ROWS)
    signal = RelationalNameSignal(reference.names, reference.name_entity, 0.25)
    pools = [[0, 1, 2, 3, 4, 5], [3, 4], [5, 3]]
    penalties = signal.penalties(Queries(["LC3", "LC3", "EGF"], ["LC3", "LC3", "EGF"], [None] * 3), pools)
    assert penalties[0].tolist() == [0.25, 0.25, 0.25, 0.0, 0.0, 0.0]  # `Lc(3)Cer synthase` and `B3GNT5` too
    assert penalties[1].tolist() == [0.0, 0.0]  # the synthase's names are not in this pool
    assert penalties[2].tolist() == [0.25, 0.0]


def test_the_fused_score_drops_by_the_penalty_only_in_hybrid_mode_and_when_on(lc3_linker):
    off = LinkerSettings(cache_size=0, exact_short_cut=False, relational_penalty=0.0)
    on = LinkerSettings(cache_size=0, exact_short_cut=False, relational_penalty=0.3)
    assert Fusion(lc3_linker, off, "hybrid").relational is None
    assert Fusion(lc3_linker, on, "dense").relational is None
    queries = Queries(["LC3"], ["LC3"], [None])
    pools = [list(range(len(ROWS)))]
    before = Fusion(lc3_linker, off, "hybrid").fused_scores(queries, pools)[0]
    after = Fusion(lc3_linker, on, "hybrid").fused_scores(queries, pools)[0]
    numpy.testing.assert_allclose(before - after, [0.3, 0.3, 0.3, 0.0, 0.0, 0.0], atol=1e-6)


def test_linking_ranks_the_related_entity_lower(lc3_linker):
    def score_of(settings, kb_id):
        candidates = lc3_linker.with_settings(settings).link(["LC3"], top_k=3)[0]
        return next(c.score for c in candidates if c.kb_id == kb_id)

    plain = score_of(LinkerSettings(cache_size=0, relational_penalty=0.0), "UniProt:Q9BYG0")
    assert score_of(LinkerSettings(cache_size=0, relational_penalty=0.3), "UniProt:Q9BYG0") == pytest.approx(plain - 0.3, abs=1e-5)


def test_the_penalty_is_a_checked_setting():
    with pytest.raises(ValueError, match="relational_penalty"):
        LinkerSettings(relational_penalty=1.5)


def test_the_penalty_is_on_by_default():
    assert LinkerSettings().relational_penalty == 0.2


def test_the_cheap_test_lets_names_with_other_separators_through():
    rows = [("UniProt:P25963", "NF kB inhibitor alpha", "alternative"), ("UniProt:P25963", "NFKBIA", "gene_primary"),
            ("UniProt:Q04206", "NF-kappa-B p65", "alternative")]
    reference = ReferenceSet.from_rows(rows)
    signal = RelationalNameSignal(reference.names, reference.name_entity, 0.2)
    penalties = signal.penalties(Queries(["NF-kB"], ["NF-kB"], [None]), [[0, 1, 2]])
    assert penalties[0].tolist() == pytest.approx([0.2, 0.2, 0.0])
