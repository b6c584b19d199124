"""The Span and Doc extension attributes the `nseen_linker` reads and writes."""
from spacy.tokens import Doc, Span

# doc._.organisms: the document's organisms (set by the caller: only those are assigned; else written by the
# linker, most likely first). doc._.article_texts: other texts of the same article, read as organism evidence.
# doc._.figure_texts: the other panel texts of the same figure, when a caption comes split into panels (closer
# evidence than the article's).
DOC_EXTENSIONS = ("organisms", "article_texts", "figure_texts")
SPAN_EXTENSIONS = ("kb_id", "kb_score", "kb_candidates", "kb_taxon", "kb_taxon_evidence", "kb_xrefs")


def register_extensions() -> None:
    """Register the Span and Doc extensions (idempotent)."""
    for name in SPAN_EXTENSIONS:
        if not Span.has_extension(name):
            Span.set_extension(name, default=None)
    for name in DOC_EXTENSIONS:
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=None)
