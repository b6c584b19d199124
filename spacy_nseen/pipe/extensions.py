"""The Span and Doc extension attributes the `nseen_linker` reads and writes."""

from functools import partial
from typing import Any, Dict, Hashable, List, Optional, cast

from spacy.tokens import Doc, Span

# doc._.organisms: the document's organisms (set by the caller: only those are assigned; else written by the
# linker, most likely first). doc._.article: the doc's article, `{"texts": [...], "figures": [...] or None,
# "index": i}` (set by `article_docs`; the texts list is shared by the article's docs): the linker reads the
# other texts as context, each text of the article once (`article_context`). doc._.article_texts: other texts of
# the same article, read as organism evidence (set by the caller, else the other texts of doc._.article).
# doc._.figure_texts: the other panel texts of the same figure, when a caption comes split into panels (closer
# evidence than the article's).
DOC_EXTENSIONS = ("organisms", "article")
CONTEXT_EXTENSIONS = ("article_texts", "figure_texts")
SPAN_EXTENSIONS = ("kb_id", "kb_score", "kb_candidates", "kb_taxon", "kb_taxon_evidence", "kb_xrefs", "kb_searched")


def _key(name: str) -> tuple:
    """RETURNS (tuple): where spaCy keeps a doc extension's value in `doc.user_data` (so DocBin carries it)."""
    return ("._.", name, None, None)


def _user_data(doc: Doc) -> Dict[Any, Any]:
    """RETURNS (Dict[Any, Any]): `doc.user_data` (typed `Dict[str, Any]` by spaCy; extension keys are tuples)."""
    return cast(Dict[Any, Any], doc.user_data)


def _context_value(name: str, doc: Doc) -> Optional[List[str]]:
    """The getter of `doc._.<name>`: the value set on the doc, else the other texts of `doc._.article`."""
    value = _user_data(doc).get(_key(name))
    if value is not None:
        return value
    article = _user_data(doc).get(_key("article"))
    if not isinstance(article, dict) or "texts" not in article or "index" not in article:
        return None
    texts, index, figures = article["texts"], article["index"], article.get("figures")
    if name == "article_texts":
        return [text for j, text in enumerate(texts) if j != index]
    if figures is None or figures[index] is None:
        return None
    return [text for j, text in enumerate(texts) if j != index and figures[j] == figures[index]]


def _set_context(name: str, doc: Doc, value: Any) -> None:
    """The setter of `doc._.<name>`: kept where spaCy keeps extension values (DocBin carries it)."""
    _user_data(doc)[_key(name)] = value


def register_extensions() -> None:
    """Register the Span and Doc extensions (idempotent)."""
    for name in SPAN_EXTENSIONS:
        if not Span.has_extension(name):
            Span.set_extension(name, default=None)
    for name in DOC_EXTENSIONS:
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=None)
    for name in CONTEXT_EXTENSIONS:
        if not Doc.has_extension(name):
            # module-level functions, so that spaCy's multiprocessing can pickle the extensions
            Doc.set_extension(name, getter=partial(_context_value, name), setter=partial(_set_context, name))


def explicit_context(doc: Doc, name: str) -> bool:
    """RETURNS (bool): whether `doc._.<name>` (`article_texts`, `figure_texts`) was set on the doc itself rather
    than read from `doc._.article`."""
    return _user_data(doc).get(_key(name)) is not None


def article_of(doc: Doc) -> Optional[Dict[str, Any]]:
    """RETURNS (Optional[Dict[str, Any]]): `doc._.article` checked (`texts` a list of strings holding the doc's text
    at `index`, `figures` None or one key per text), None when unset. RAISES (TypeError, ValueError): naming what
    to fix."""
    article = doc._.article if Doc.has_extension("article") else None
    if article is None:
        return None
    hint = "set it with spacy_nseen.article_docs(nlp, texts, figures)"
    if not isinstance(article, dict) or not isinstance(article.get("texts"), (list, tuple)):
        raise TypeError(f"doc._.article must be a dict with a 'texts' list and an 'index': {hint}")
    texts, index, figures = article["texts"], article.get("index"), article.get("figures")
    if not isinstance(index, int) or not 0 <= index < len(texts):
        raise ValueError(f"doc._.article['index'] is {index!r}, not a place in its {len(texts)} texts: {hint}")
    if texts[index] != doc.text:
        raise ValueError(f"doc._.article['texts'][{index}] is not the doc's text: {hint}")
    if figures is not None and (
        not isinstance(figures, (list, tuple))
        or len(figures) != len(texts)
        or not all(isinstance(key, Hashable) for key in figures)
    ):
        raise ValueError(f"doc._.article['figures'] must be None or one figure key (a string) per text: {hint}")
    return article


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
