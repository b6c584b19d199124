"""The Span and Doc extension attributes the `nseen_linker` reads and writes."""

from typing import List, Optional

from spacy.tokens import Doc, Span

# doc._.organisms: the document's organisms (set by the caller: only those are assigned; else written by the
# linker, most likely first). doc._.article_texts: other texts of the same article, read as organism evidence.
# doc._.figure_texts: the other panel texts of the same figure, when a caption comes split into panels (closer
# evidence than the article's).
DOC_EXTENSIONS = ("organisms", "article_texts", "figure_texts")
SPAN_EXTENSIONS = ("kb_id", "kb_score", "kb_candidates", "kb_taxon", "kb_taxon_evidence", "kb_xrefs", "kb_searched")


def register_extensions() -> None:
    """Register the Span and Doc extensions (idempotent)."""
    for name in SPAN_EXTENSIONS:
        if not Span.has_extension(name):
            Span.set_extension(name, default=None)
    for name in DOC_EXTENSIONS:
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=None)


def context_texts(doc: Doc, name: str) -> Optional[List[str]]:
    """RETURNS (Optional[List[str]]): `doc._.<name>` (`article_texts` or `figure_texts`) as a list of strings, None
    when unset. RAISES (TypeError): naming the attribute, when it is one string or holds anything but strings."""
    value = getattr(doc._, name)
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise TypeError(
            f"doc._.{name} must be a list of strings (the other texts of the article), got "
            f"{type(value).__name__}: wrap a single text in a list, or use spacy_nseen.article_docs"
        )
    bad = [i for i, text in enumerate(value) if not isinstance(text, str)]
    if bad:
        raise TypeError(f"doc._.{name}[{bad[0]}] is a {type(value[bad[0]]).__name__}, not a string")
    return list(value)
