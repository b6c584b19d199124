from spacy_nseen.linker.exact_ranking import names_per_entity
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.reference.short_form_names import (
    SHORT_FORM_KINDS,
    derived_rows,
    is_derived_kind,
    short_form_rows,
    with_short_forms,
)

ROWS = [
    ("UniProt:Q9H492", "Autophagy-related protein LC3 A", "alternative"),
    ("UniProt:Q9H492", "MAP1LC3A", "gene_primary"),
    ("UniProt:Q9GZQ8", "Autophagy-related protein LC3 B", "alternative"),
    ("UniProt:Q9GZQ8", "MAP1LC3B", "gene_primary"),
    ("UniProt:P48741", "HSP70B", "gene_synonym"),
    ("UniProt:P0DMV8", "HSP70-1", "alternative"),
]


def test_short_form_rows():
    rows = short_form_rows(ReferenceSet.from_rows(ROWS))
    assert ("UniProt:Q9H492", "LC3 A", "short_symbol") in rows
    assert ("UniProt:Q9H492", "LC3", "short_stem") in rows and ("UniProt:Q9GZQ8", "LC3", "short_stem") in rows
    assert ("UniProt:Q9GZQ8", "MAP1LC3", "short_stem") in rows
    # a stem needs a family: HSP70B alone does not make `HSP70` a name of HSPA7
    assert not any(form == "HSP70" for _, form, _ in rows)
    assert len(rows) == len(set(rows))


def test_with_short_forms_keeps_the_names_and_taxa_first():
    taxa = {"UniProt:Q9H492": 9606, "UniProt:Q9GZQ8": 9606, "UniProt:P48741": 9606, "UniProt:P0DMV8": 9606}
    reference = ReferenceSet.from_rows(ROWS, taxa=taxa)
    expanded = with_short_forms(reference)
    assert list(expanded.names[: len(ROWS)]) == [name for _, name, _ in ROWS]
    assert list(expanded.kb_ids) == list(reference.kb_ids)
    assert expanded.entity_taxa.tolist() == reference.entity_taxa.tolist()
    derived = derived_rows(expanded)
    assert derived == frozenset(range(len(ROWS), len(expanded)))
    assert derived_rows(reference) == frozenset()
    # derived names do not count for the `names` tie-break
    assert names_per_entity(expanded).tolist() == names_per_entity(reference).tolist()


def test_stems_are_counted_per_organism():
    rows = ROWS[:4] + [("UniProt:Q91VR7", "Map1lc3a", "gene_primary"), ("UniProt:Q9CQV6", "Map1lc3b", "gene_primary")]
    taxa = {kb_id: 10090 if kb_id in ("UniProt:Q91VR7", "UniProt:Q9CQV6") else 9606 for kb_id, _, _ in rows}
    reference = ReferenceSet.from_rows(rows, taxa=taxa)
    assert any(form == "LC3" for _, form, _ in short_form_rows(reference, max_stem_entities=2))
    assert not any(form == "LC3" for _, form, _ in short_form_rows(ReferenceSet.from_rows(ROWS[:4]), max_stem_entities=1))


def test_a_short_form_is_searched_but_never_an_exact_match(toy_encoder):
    linker = KnowledgeBaseLinker.build("toy", toy_encoder, with_short_forms(ReferenceSet.from_rows(ROWS)), n_trees=2)
    lc3 = [row for row, name in enumerate(linker.reference_set.names) if name == "LC3"]
    assert lc3 and linker.exact_names.lookup("LC3") == {}
    assert linker.exact_names.lookup("MAP1LC3A")  # real names still match
    ids = {c.kb_id for c in linker.link(["LC3"], top_k=2)[0]}
    assert ids == {"UniProt:Q9H492", "UniProt:Q9GZQ8"}


def test_the_derived_kinds_are_the_short_form_kinds():
    assert all(is_derived_kind(kind) for kind in SHORT_FORM_KINDS.values())
    assert not is_derived_kind("discovered") and not is_derived_kind("gene_primary")
