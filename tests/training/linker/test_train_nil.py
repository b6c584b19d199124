from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.reference.short_form_names import derived_rows, with_short_forms
from training.linker import train_nil

ROWS = [
    ("UniProt:Q9H492", "Autophagy-related protein LC3 A", "alternative"),
    ("UniProt:Q9H492", "MAP1LC3A", "gene_primary"),
    ("UniProt:Q9GZQ8", "Autophagy-related protein LC3 B", "alternative"),
    ("UniProt:Q9GZQ8", "MAP1LC3B", "gene_primary"),
    ("UniProt:Q7Z3C6", "ATG9A", "gene_primary"),
    ("UniProt:Q674R7", "ATG9B", "gene_primary"),
]


def test_nil_examples_query_names_as_written_never_short_forms(toy_encoder, monkeypatch):
    reference = with_short_forms(ReferenceSet.from_rows(ROWS))
    derived = {reference.names[row] for row in derived_rows(reference)}
    assert {"LC3", "ATG9", "LC3 A"} <= derived
    linker = KnowledgeBaseLinker.build("uniprot", toy_encoder, reference, n_trees=2)
    queried = []

    def recording_surface_form(name, form):
        queried.append(name)
        return name

    monkeypatch.setattr(train_nil, "surface_form", recording_surface_form)
    features, labels, counts = train_nil.nil_examples(linker, ["water"], n_entities=4, n_other=1, seed=0)
    assert sorted(queried) and not set(queried) & derived
    assert set(queried) <= {name for _, name, _ in ROWS}
    assert len(features) == len(labels) == sum(counts.values())
