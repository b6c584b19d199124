"""The organism signal's rule for exact matches of other organisms only: a close name of the assigned organism
ranks with them (`organism_over_exact_score`)."""
from dataclasses import replace

import numpy
import pytest
from multi_organism_rows import organism_signal
from thinc.api import Model

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.linker.signals.organism import OrganismSignal
from spacy_nseen.organisms.ranking import OrganismContext
from spacy_nseen.reference.reference_set import ReferenceSet

MOUSE, ECOLI = 10090, 83333
# Only the E. coli entry is named `Alkaline phosphatase` as written; the mouse entry's names differ a little.
ROWS = [
    ("UniProt:P00634", "Alkaline phosphatase", "recommended"),
    ("UniProt:P00634", "phoA", "gene_primary"),
    ("UniProt:P09242", "Alkaline phosphatase, tissue-nonspecific isozyme", "recommended"),
    ("UniProt:P09242", "Alkaline phosphatase liver/bone/kidney", "alternative"),
    ("UniProt:P09242", "Alpl", "gene_primary"),
    ("UniProt:Q9Z1Z1", "Eukaryotic translation initiation factor 2-alpha kinase 3", "recommended"),
    ("UniProt:Q9Z1Z1", "Eif2ak3", "gene_primary"),
]
TAXA = {"UniProt:P00634": ECOLI, "UniProt:P09242": MOUSE, "UniProt:Q9Z1Z1": MOUSE}


@pytest.fixture(scope="module")
def reference() -> ReferenceSet:
    return ReferenceSet.from_rows(ROWS, TAXA)


@pytest.fixture(scope="module")
def linker(toy_encoder: Model, reference: ReferenceSet) -> KnowledgeBaseLinker:
    return KnowledgeBaseLinker.build("uniprot", toy_encoder, reference, n_trees=5, seed=0)


def test_a_mention_matching_only_another_organism_is_searched_when_the_assignment_is_confident(
        reference: ReferenceSet, linker: KnowledgeBaseLinker) -> None:
    exact = linker.exact_names.lookup("Alkaline phosphatase")
    assert {reference.kb_ids[int(reference.name_entity[r])] for r in exact} == {"UniProt:P00634"}
    on = organism_signal(reference, 0.75)
    assert on.foreign_exact_only(exact, OrganismContext(MOUSE, 0.9))
    assert not on.foreign_exact_only(exact, OrganismContext(MOUSE, 0.1))  # weak evidence: the short-cut holds
    assert not on.foreign_exact_only(exact, OrganismContext(ECOLI, 0.9))  # an exact match of its own organism
    assert not on.foreign_exact_only(exact, None) and not on.foreign_exact_only({}, OrganismContext(MOUSE, 0.9))
    assert not organism_signal(reference, 1.0).foreign_exact_only(exact, OrganismContext(MOUSE, 0.9))  # off


def test_close_names_of_the_assigned_organism_take_the_best_exact_tier() -> None:
    on = OrganismSignal(None, numpy.zeros(0, numpy.int64), 0.1, 0.3, None, 0.75)
    tiers = numpy.asarray([2, 0, 0, 0])
    scores = numpy.asarray([1.0, 0.8, 0.7, 0.9], numpy.float32)
    confident = numpy.asarray([0, 1, 1, 0])
    ranked, counterparts = on.over_exact(tiers, scores, confident)
    assert list(ranked) == [2, 2, 0, 0] and not counterparts.any()  # close enough and of the organism
    assert list(tiers) == [2, 0, 0, 0]  # not changed in place
    own_exact = numpy.asarray([2, 0, 1, 0])
    assert on.over_exact(own_exact, scores, confident).tiers is own_exact  # the organism has an exact match already
    off = OrganismSignal(None, numpy.zeros(0, numpy.int64), 0.1, 0.3, None, 1.0)
    assert off.over_exact(tiers, scores, confident).tiers is tiers


def test_a_suffixed_name_of_the_assigned_organism_takes_the_best_exact_tier_whatever_its_score() -> None:
    on = OrganismSignal(None, numpy.zeros(0, numpy.int64), 0.1, 0.3, None, 0.75)
    tiers = numpy.asarray([2, 0, 0, 0])
    scores = numpy.asarray([1.0, 0.5, 0.4, 0.5], numpy.float32)
    confident = numpy.asarray([0, 1, 1, 0])
    asked = []

    def suffixed(at: numpy.ndarray) -> numpy.ndarray:
        asked.extend(at.tolist())
        return at == 2

    ranked, counterparts = on.over_exact(tiers, scores, confident, suffixed)
    assert list(ranked) == [2, 0, 2, 0] and list(counterparts) == [False, False, True, False]
    assert asked == [1, 2]  # only the assigned organism's names off the exact tier
    own = on.over_exact(numpy.asarray([2, 0, 1, 0]), scores, confident, suffixed)
    assert own.tiers[2] == 1 and not own.counterparts.any()  # the organism has an exact match already
    off = OrganismSignal(None, numpy.zeros(0, numpy.int64), 0.1, 0.3, None, 1.0)
    assert off.over_exact(tiers, scores, confident, suffixed).tiers is tiers


def test_the_linker_prefers_the_assigned_organisms_close_name_and_writes_its_own_score(
        linker: KnowledgeBaseLinker) -> None:
    mouse = [OrganismContext(MOUSE, 0.9)]
    low = linker.with_settings(replace(linker.settings, organism_over_exact_score=0.3))
    top = low.link(["Alkaline phosphatase"], top_k=2, organisms=mouse)[0]
    assert [c.kb_id for c in top] == ["UniProt:P09242", "UniProt:P00634"]
    assert top[0].score < 1.0 and top[1].score == 1.0  # not an exact match: its fused score is written
    off = linker.with_settings(replace(linker.settings, organism_over_exact_score=1.0))
    assert off.link(["Alkaline phosphatase"], top_k=1, organisms=mouse)[0][0].kb_id == "UniProt:P00634"
    weak = low.link(["Alkaline phosphatase"], top_k=1, organisms=[OrganismContext(MOUSE, 0.1)])[0]
    assert weak[0].kb_id == "UniProt:P00634"  # weak evidence: the name decides


def test_the_setting_is_checked() -> None:
    from spacy_nseen.linker.settings import LinkerSettings

    with pytest.raises(ValueError, match="organism_over_exact_score"):
        LinkerSettings(organism_over_exact_score=1.5)


YEAST, HUMAN = 559292, 9606
ATG_ROWS = [
    ("UniProt:Q03818", "Autophagy-related protein 16", "recommended"),
    ("UniProt:Q03818", "ATG16", "gene_primary"),
    ("UniProt:Q676U5", "Autophagy-related protein 16-1", "recommended"),
    ("UniProt:Q676U5", "ATG16L1", "gene_primary"),
    ("UniProt:Q676U5", "APG16L", "alternative"),
    ("UniProt:Q9Y4P1", "Cysteine protease ATG4B", "recommended"),
    ("UniProt:Q9Y4P1", "ATG4B", "gene_primary"),
]
ATG_TAXA = {"UniProt:Q03818": YEAST, "UniProt:Q676U5": HUMAN, "UniProt:Q9Y4P1": HUMAN}


def test_the_yeast_name_of_a_gene_links_to_its_suffixed_counterpart_in_the_assigned_organism(
        toy_encoder: Model) -> None:
    atg = KnowledgeBaseLinker.build("uniprot", toy_encoder, ReferenceSet.from_rows(ATG_ROWS, ATG_TAXA),
                                    n_trees=5, seed=0)
    human = atg.link(["Atg16"], top_k=2, organisms=[OrganismContext(HUMAN, 0.9)])[0]
    assert human[0].kb_id == "UniProt:Q676U5" and human[0].name == "ATG16L1"
    assert human[0].score == 1.0  # the gene as the assigned organism names it: written as an exact match
    assert human[1].kb_id == "UniProt:Q03818" and human[1].score == 1.0
    yeast = atg.link(["Atg16"], top_k=1, organisms=[OrganismContext(YEAST, 0.9)])[0]
    assert yeast[0].kb_id == "UniProt:Q03818"
    weak = atg.link(["Atg16"], top_k=1, organisms=[OrganismContext(HUMAN, 0.1)])[0]
    assert weak[0].kb_id == "UniProt:Q03818"  # weak evidence: the exact name decides
    off = atg.with_settings(replace(atg.settings, organism_over_exact_score=1.0))
    assert off.link(["Atg16"], top_k=1, organisms=[OrganismContext(HUMAN, 0.9)])[0][0].kb_id == "UniProt:Q03818"


def test_the_organism_signal_is_what_the_fusion_reads_of_an_organism_scope():
    """The fusion and the rank keys call the organism signal only through the `OrganismScope` protocol."""
    import inspect

    import numpy

    from spacy_nseen.linker import fusion, rank_keys
    from spacy_nseen.linker.signals.base import OrganismScope
    from spacy_nseen.linker.signals.organism import OrganismSignal

    assert isinstance(OrganismSignal(None, numpy.zeros(2, dtype=numpy.int64), 0.1, 0.3), OrganismScope)
    declared = {name for name in dir(OrganismScope) if not name.startswith("_")}
    for module in (fusion, rank_keys):
        used = set(__import__("re").findall(r"\.organism\.(\w+)", inspect.getsource(module)))
        assert used <= declared | {"weight"}, (module.__name__, used - declared)
