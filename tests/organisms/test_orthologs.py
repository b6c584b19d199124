"""Orthologs by gene symbol: an exact match of another organism brings the assigned organism's ortholog."""
from dataclasses import replace

import pytest
from thinc.api import Model

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.organisms.orthologs import OrthologTable
from spacy_nseen.organisms.ranking import OrganismContext
from spacy_nseen.reference.reference_set import ReferenceSet

HUMAN, RAT, MOUSE = 9606, 10116, 10090
ROWS = [
    ("UniProt:Q14457", "Beclin-1", "recommended"),
    ("UniProt:Q14457", "BECN1", "gene_primary"),
    ("UniProt:Q91XJ1", "Beclin-1", "recommended"),
    ("UniProt:Q91XJ1", "Becn1", "gene_primary"),
    ("UniProt:Q91XJ1", "Beclin1", "nomenclature_alias"),  # only the rat entry lists the glued form
    ("UniProt:M1", "Dup", "gene_primary"),
    ("UniProt:M2", "Dup", "gene_primary"),  # two mouse entries share a symbol: no ortholog
    ("UniProt:H3", "DUP", "gene_primary"),
    ("UniProt:H3", "dupin", "alternative"),
]
TAXA = {"UniProt:Q14457": HUMAN, "UniProt:Q91XJ1": RAT, "UniProt:M1": MOUSE, "UniProt:M2": MOUSE, "UniProt:H3": HUMAN}


@pytest.fixture(scope="module")
def reference() -> ReferenceSet:
    return ReferenceSet.from_rows(ROWS, TAXA)


@pytest.fixture(scope="module")
def linker(toy_encoder: Model, reference: ReferenceSet) -> KnowledgeBaseLinker:
    return KnowledgeBaseLinker.build("uniprot", toy_encoder, reference, n_trees=5, seed=0)


def test_orthologs_share_a_gene_symbol_ignoring_case(reference: ReferenceSet) -> None:
    table = OrthologTable(reference)
    rat, human = reference.entity_index("UniProt:Q91XJ1"), reference.entity_index("UniProt:Q14457")
    assert reference.names[table.symbol_row(rat, HUMAN)] == "BECN1"
    assert reference.names[table.symbol_row(human, RAT)] == "Becn1"
    assert table.symbol_row(rat, MOUSE) is None  # no mouse entry
    assert table.symbol_row(reference.entity_index("UniProt:H3"), MOUSE) is None  # ambiguous in mouse


def test_a_set_without_taxa_has_no_orthologs(toy_reference: ReferenceSet) -> None:
    assert OrthologTable(toy_reference).symbol_row(0, HUMAN) is None


def test_an_exact_match_of_another_organism_brings_the_assigned_ortholog(linker: KnowledgeBaseLinker) -> None:
    human = OrganismContext(HUMAN, 0.9)
    top = linker.link(["Beclin1"], top_k=2, organisms=[human])[0]
    assert [c.kb_id for c in top] == ["UniProt:Q14457", "UniProt:Q91XJ1"]
    assert top[0].name == "BECN1" and top[0].score == 1.0  # an exact match, shown by the ortholog's symbol


def test_weak_or_no_evidence_and_the_setting_off_keep_the_exact_match(linker: KnowledgeBaseLinker) -> None:
    rat_first = ["UniProt:Q91XJ1"]
    assert [c.kb_id for c in linker.link(["Beclin1"], top_k=1)[0]] == rat_first
    weak = OrganismContext(HUMAN, 0.1)
    assert [c.kb_id for c in linker.link(["Beclin1"], top_k=1, organisms=[weak])[0]] == rat_first
    off = linker.with_settings(replace(linker.settings, organism_orthologs=False))
    strong = OrganismContext(HUMAN, 0.9)
    assert [c.kb_id for c in off.link(["Beclin1"], top_k=1, organisms=[strong])[0]] == rat_first


def test_a_restriction_still_applies_to_orthologs(linker: KnowledgeBaseLinker) -> None:
    only_rat = OrganismContext(HUMAN, 0.9, allowed=frozenset({RAT}))
    assert {c.kb_id for c in linker.link(["Beclin1"], top_k=3, organisms=[only_rat])[0]} == {"UniProt:Q91XJ1"}
