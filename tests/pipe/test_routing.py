"""Routing entities to reference sets (`spacy_nseen.pipe.routing`) and the extension attributes."""
import spacy
from spacy.tokens import Doc, Span

from spacy_nseen.pipe.extensions import DOC_EXTENSIONS, SPAN_EXTENSIONS, register_extensions
from spacy_nseen.pipe.routing import route_entities


def test_mapped_labels_are_routed_and_overwrite_off_keeps_linked_spans():
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["TP53", "binds", "ATP", "in", "HeLa"])
    doc.ents = [Span(doc, 0, 1, "PROTEIN"), Span(doc, 2, 3, "CHEMICAL", kb_id="CHEBI:15422"), Span(doc, 4, 5, "CELL")]
    kbs = {"PROTEIN": "uniprot", "CHEMICAL": "chebi"}
    assert [(r.ent_index, r.span.text, r.kb) for r in route_entities(doc, kbs, True)] == [(0, "TP53", "uniprot"), (1, "ATP", "chebi")]
    assert [r.kb for r in route_entities(doc, kbs, False)] == ["uniprot"]


def test_the_extensions_are_registered_once():
    register_extensions()
    register_extensions()
    assert all(Span.has_extension(name) for name in SPAN_EXTENSIONS)
    assert all(Doc.has_extension(name) for name in DOC_EXTENSIONS)
