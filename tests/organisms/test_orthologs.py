"""Orthologs by gene symbol: a candidate of another organism brings the assigned organism's ortholog."""
from dataclasses import replace

import numpy
import pytest
from multi_organism_rows import organism_signal
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


def test_pooled_max_gives_each_ortholog_group_its_largest_value(reference: ReferenceSet) -> None:
    table = OrthologTable(reference)
    values = numpy.arange(1.0, reference.n_entities + 1.0)
    pooled = table.pooled_max(values)
    human, rat = reference.entity_index("UniProt:Q14457"), reference.entity_index("UniProt:Q91XJ1")
    assert pooled[human] == pooled[rat] == max(values[human], values[rat])
    dup = [reference.entity_index(k) for k in ("UniProt:M1", "UniProt:M2", "UniProt:H3")]
    assert set(pooled[dup]) == {max(values[dup])}  # one symbol, one group (ambiguity only blocks stand-ins)
    assert pooled is not values and list(values) == list(numpy.arange(1.0, reference.n_entities + 1.0))


# `p62` is an alias of two human proteins; in mouse neither entry lists it, so both come in as orthologs.
# The mouse Igf2bp2 entry has more names than mouse Sqstm1, the human SQSTM1 entry more than IGF2BP2: how
# studied a gene is belongs to the gene, so the names tie-break reads the ortholog group's count.
P62_ROWS = [
    ("UniProt:Q13501", "Sequestosome-1", "recommended"),
    ("UniProt:Q13501", "SQSTM1", "gene_primary"),
    ("UniProt:Q13501", "p62", "gene_synonym"),
    ("UniProt:Q13501", "ORCA", "gene_synonym"),
    ("UniProt:Q13501", "OSIL", "gene_synonym"),
    ("UniProt:Q13501", "EBIAP", "alternative"),
    ("UniProt:Q9Y6M1", "IGF2 mRNA-binding protein 2", "recommended"),
    ("UniProt:Q9Y6M1", "IGF2BP2", "gene_primary"),
    ("UniProt:Q9Y6M1", "p62", "gene_synonym"),
    ("UniProt:Q64337", "Sequestosome-1", "recommended"),
    ("UniProt:Q64337", "Sqstm1", "gene_primary"),
    ("UniProt:Q5SF07", "IGF2 mRNA-binding protein 2", "recommended"),
    ("UniProt:Q5SF07", "Igf2bp2", "gene_primary"),
    ("UniProt:Q5SF07", "Imp2", "gene_synonym"),
    ("UniProt:Q5SF07", "Vickz2", "gene_synonym"),
]
P62_TAXA = {"UniProt:Q13501": HUMAN, "UniProt:Q9Y6M1": HUMAN, "UniProt:Q64337": MOUSE, "UniProt:Q5SF07": MOUSE}


def _names_linker(toy_encoder: Model, reference: ReferenceSet) -> KnowledgeBaseLinker:
    """A linker with orthologs and the shipped `names` tie-break."""
    linker = KnowledgeBaseLinker.build("uniprot", toy_encoder, reference, n_trees=5, seed=0)
    return linker.with_settings(replace(linker.settings, exact_tie_break="names", organism_orthologs=True))


def test_the_names_tie_break_counts_an_ortholog_groups_names(toy_encoder: Model) -> None:
    linker = _names_linker(toy_encoder, ReferenceSet.from_rows(P62_ROWS, P62_TAXA))
    mouse = linker.link(["p62"], top_k=2, organisms=[OrganismContext(MOUSE, 0.9)])[0]
    assert [c.kb_id for c in mouse] == ["UniProt:Q64337", "UniProt:Q5SF07"]
    human = linker.link(["p62"], top_k=2, organisms=[OrganismContext(HUMAN, 0.9)])[0]
    assert [c.kb_id for c in human] == ["UniProt:Q13501", "UniProt:Q9Y6M1"]


def _row(reference: ReferenceSet, kb_id: str, name: str) -> int:
    return next(r for r, n in enumerate(reference.names)
                if n == name and reference.kb_ids[int(reference.name_entity[r])] == kb_id)


def test_a_fuzzy_candidate_of_another_organism_lends_its_score_to_the_ortholog(reference: ReferenceSet) -> None:
    signal = organism_signal(reference)
    rat_alias = _row(reference, "UniProt:Q91XJ1", "Beclin1")
    human_symbol = _row(reference, "UniProt:Q14457", "BECN1")
    human = OrganismContext(HUMAN, 0.9)
    # the human symbol is not a candidate: it joins the pool with the rat name's score, standing in for it
    pool, scores, sources = signal.with_orthologs([rat_alias], numpy.asarray([0.8], numpy.float32), {}, human)
    assert pool == [rat_alias, human_symbol] and list(scores) == pytest.approx([0.8, 0.8])
    assert sources == {human_symbol: rat_alias}
    # it is a candidate with a lower score: its score is raised, nothing is added
    pool, scores, sources = signal.with_orthologs([rat_alias, human_symbol], numpy.asarray([0.8, 0.5], numpy.float32),
                                                  {}, human)
    assert pool == [rat_alias, human_symbol] and list(scores) == pytest.approx([0.8, 0.8]) and sources == {}
    # a higher own score and an exact own match are kept; weak evidence changes nothing
    kept = numpy.asarray([0.8, 0.9], numpy.float32)
    assert list(signal.with_orthologs([rat_alias, human_symbol], kept, {}, human)[1]) == pytest.approx([0.8, 0.9])
    exact_own = signal.with_orthologs([rat_alias, human_symbol], numpy.asarray([0.8, 0.5], numpy.float32),
                                      {human_symbol: 1}, human)
    assert list(exact_own[1]) == pytest.approx([0.8, 0.5])
    weak = signal.with_orthologs([rat_alias], numpy.asarray([0.8], numpy.float32), {}, OrganismContext(HUMAN, 0.1))
    assert weak[0] == [rat_alias] and weak[2] == {}


WNT_ROWS = [
    ("UniProt:P56704", "Protein Wnt-3a", "recommended"),
    ("UniProt:P56704", "WNT3A", "gene_primary"),
    ("UniProt:P27467", "Protein Wnt-3a", "recommended"),
    ("UniProt:P27467", "Wnt3a", "gene_primary"),
    ("UniProt:P27467", "Wnt-3a", "gene_synonym"),
]
WNT_TAXA = {"UniProt:P56704": HUMAN, "UniProt:P27467": MOUSE}


def test_an_ortholog_that_matches_only_loosely_takes_the_strict_match_of_its_source(toy_encoder: Model) -> None:
    reference = ReferenceSet.from_rows(WNT_ROWS, WNT_TAXA)
    linker = KnowledgeBaseLinker.build("uniprot", toy_encoder, reference, n_trees=5, seed=0)
    linker = linker.with_settings(replace(linker.settings, organism_orthologs=True))
    # `Wnt-3a` is a name of mouse Wnt3a as written, of human WNT3A only without its hyphen and case
    best_tier: dict = {}
    for row, tier in linker.exact_names.lookup("Wnt-3a").items():
        kb_id = reference.kb_ids[int(reference.name_entity[row])]
        best_tier[kb_id] = max(tier, best_tier.get(kb_id, 0))
    assert best_tier == {"UniProt:P27467": 2, "UniProt:P56704": 1}
    human = linker.link(["Wnt-3a"], top_k=2, organisms=[OrganismContext(HUMAN, 0.95)])[0]
    assert [c.kb_id for c in human] == ["UniProt:P56704", "UniProt:P27467"]
    mouse = linker.link(["Wnt-3a"], top_k=2, organisms=[OrganismContext(MOUSE, 0.95)])[0]
    assert [c.kb_id for c in mouse] == ["UniProt:P27467", "UniProt:P56704"]
    without = linker.with_settings(replace(linker.settings, organism_orthologs=False))
    assert [c.kb_id for c in without.link(["Wnt-3a"], top_k=2, organisms=[OrganismContext(HUMAN, 0.95)])[0]] == [
        "UniProt:P27467", "UniProt:P56704"]


# `PD-1` is an alias of mouse and human PD-1 (Pdcd1/PDCD1), and UniProt also lists it among the alternative names of
# human RPL17. For a mouse mention, RPL17's exact match brings mouse Rpl17 as a stand-in with the alternative
# name's kind, which ranks before the mouse entry's own nomenclature alias; the gene named `PD-1` in two organisms
# ranks first all the same.
PD1_ROWS = [
    ("UniProt:Q15116", "Programmed cell death protein 1", "recommended"),
    ("UniProt:Q15116", "PDCD1", "gene_primary"),
    ("UniProt:Q15116", "PD-1", "hgnc_alias"),
    ("UniProt:Q02242", "Programmed cell death protein 1", "recommended"),
    ("UniProt:Q02242", "Pdcd1", "gene_primary"),
    ("UniProt:Q02242", "PD-1", "nomenclature_alias"),
    ("UniProt:P18621", "60S ribosomal protein L17", "recommended"),
    ("UniProt:P18621", "RPL17", "gene_primary"),
    ("UniProt:P18621", "PD-1", "alternative"),
    ("UniProt:Q9CPR4", "60S ribosomal protein L17", "recommended"),
    ("UniProt:Q9CPR4", "Rpl17", "gene_primary"),
]
PD1_TAXA = {"UniProt:Q15116": HUMAN, "UniProt:Q02242": MOUSE, "UniProt:P18621": HUMAN, "UniProt:Q9CPR4": MOUSE}


def test_a_gene_named_so_in_two_organisms_ranks_before_one_named_so_in_one(toy_encoder: Model) -> None:
    reference = ReferenceSet.from_rows(PD1_ROWS, PD1_TAXA)
    linker = _names_linker(toy_encoder, reference)
    mouse = linker.link(["PD-1"], top_k=2, organisms=[OrganismContext(MOUSE, 0.9)])[0]
    assert [c.kb_id for c in mouse] == ["UniProt:Q02242", "UniProt:Q9CPR4"]
    human = linker.link(["PD-1"], top_k=2, organisms=[OrganismContext(HUMAN, 0.9)])[0]
    assert [c.kb_id for c in human] == ["UniProt:Q15116", "UniProt:P18621"]
    signal = organism_signal(reference)
    exact = linker.exact_names.lookup("PD-1")
    entities = numpy.asarray([reference.entity_index(k) for k in ("UniProt:Q02242", "UniProt:Q9CPR4", "UniProt:Q15116")])
    assert list(signal.naming_organisms(entities, numpy.asarray([2, 2, 0]), exact)) == [2, 1, 0]
    assert list(signal.naming_organisms(entities, numpy.asarray([2, 2, 2]), {})) == [0, 0, 0]


def test_an_entity_without_a_gene_symbol_is_its_own_group(reference: ReferenceSet) -> None:
    table = OrthologTable(reference)
    rat, human = reference.entity_index("UniProt:Q91XJ1"), reference.entity_index("UniProt:Q14457")
    assert table.group_key(rat) == table.group_key(human) >= 0
    bare = ReferenceSet.from_rows([("UniProt:X1", "x protein", "recommended")], {"UniProt:X1": HUMAN})
    assert OrthologTable(bare).group_key(0) == -1
