import json

import numpy
import spacy
from spacy.tokens import Doc, Span

from spacy_nseen.corpus.doc_output import annotated_record, entity_dict
from spacy_nseen.corpus.records import TextRecord


def test_annotated_record_of_a_linked_doc(tiny_pipeline: str):
    nlp = spacy.load(tiny_pipeline)
    record = TextRecord("c1", "FOXP2 binds caffeine in cancer.", {"pmc": "PMC1"})
    result = annotated_record(record, nlp(record.text))
    assert (result["id"], result["text"], result["meta"]) == ("c1", record.text, {"pmc": "PMC1"})
    foxp2, caffeine = result["entities"]
    assert (foxp2["start"], foxp2["end"], foxp2["text"], foxp2["label"], foxp2["kb_id"]) == (0, 5, "FOXP2", "PROTEIN", "UniProt:O15409")
    assert caffeine["kb_id"] == "CHEBI:27732" and caffeine["kb_score"] == 1.0
    assert all(isinstance(c, list) and len(c) == 3 for c in foxp2["kb_candidates"])
    assert "kb_taxon" not in foxp2 or Span.has_extension("kb_taxon")
    json.dumps(result)  # JSON-ready


def test_organism_fields_only_when_registered():
    nlp = spacy.blank("en")
    doc = nlp("HeLa HRAS")
    doc.ents = [Span(doc, 1, 2, label="PROTEIN")]
    registered = [n for n in ("kb_taxon", "kb_xrefs") if not Span.has_extension(n)]
    organisms_added = not Doc.has_extension("organisms")
    try:
        for name in registered:
            Span.set_extension(name, default=None)
        if organisms_added:
            Doc.set_extension("organisms", default=None)
        doc.ents[0]._.kb_taxon = numpy.int64(9606)
        doc.ents[0]._.kb_xrefs = {"NCBIGene": "3265"}
        doc._.organisms = [9606]
        result = annotated_record(TextRecord("x", doc.text), doc)
        assert result["organisms"] == [9606]
        assert result["entities"][0]["kb_taxon"] == 9606 and type(result["entities"][0]["kb_taxon"]) is int
        assert result["entities"][0]["kb_xrefs"] == {"NCBIGene": "3265"}
    finally:
        for name in registered:
            Span.remove_extension(name)
        if organisms_added:
            Doc.remove_extension("organisms")
    if registered and organisms_added:
        result = annotated_record(TextRecord("x", doc.text), doc)
        assert "organisms" not in result and "kb_taxon" not in entity_dict(doc.ents[0])


def test_each_shard_starts_with_empty_link_caches(tiny_pipeline: str):
    from spacy_nseen.corpus.worker import ShardTask, annotate_shard, load_pipeline

    nlp = load_pipeline(tiny_pipeline)
    linkers = nlp.get_pipe("nseen_linker").linkers.values()
    nlp("FOXP2 binds caffeine")
    assert any(linker._cache for linker in linkers)
    result = annotate_shard(tiny_pipeline, ShardTask(0, [TextRecord("a", "water")]))
    assert result.stats["entities"] == 1
    assert sum(len(linker._cache) for linker in linkers) == 1  # only the shard's own mention
