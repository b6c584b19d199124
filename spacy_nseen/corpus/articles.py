"""Which records of a corpus are one article: the context `annotate` gives each text (on by default).

A figure caption or a passage is linked better with the other texts of its article as context: their organism words
and abbreviation definitions (`pipe.article_context`). An article is a run of consecutive records with the same
article key, and, inside it, the records with the same figure key are the panels of one figure:

- `bioc-xml`, `bioc-json`: a document's passages; the figure: a passage's infon `figure`, else its infon `id` when
  its `type` or `section_type` says it is a figure caption (`fig_caption`, `FIG`, as PMC's BioC writes them);
- `jsonl`: the record's `article` field, the figure its `figure` field;
- `tsv` (Bio-ID captions): the `pmc_id` column, the figure the `figure` column up to its panel (`Figure 1-A` →
  `Figure 1`);
- `txt`: none (each file alone).

Shards end between articles (`shard_chunks`), so an article's texts are annotated together.
"""

from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc

from ..pipe.extensions import register_extensions
from .records import CorpusItem, TextRecord

ArticleKey = Tuple[str, Optional[str]]  # (article, figure)
KeyFunction = Callable[[TextRecord], Optional[ArticleKey]]
FIGURE_TYPES = ("fig", "figure")


def _text(value: Any) -> Optional[str]:
    """RETURNS (Optional[str]): a key as a string (JSON numbers and strings alike), None when missing or empty."""
    if value is None or value == "" or isinstance(value, (dict, list)):
        return None
    return str(value)


def bioc_key(record: TextRecord) -> Optional[ArticleKey]:
    """RETURNS (Optional[ArticleKey]): a BioC passage's document, and its figure when its infons say so."""
    article = _text(record.meta.get("document"))
    if article is None:
        return None
    infons = record.meta.get("infons") or {}
    figure = _text(infons.get("figure"))
    kind = f"{infons.get('type', '')} {infons.get('section_type', '')}".lower()
    if figure is None and any(word in kind for word in FIGURE_TYPES):
        figure = _text(infons.get("id"))
    return article, figure


def jsonl_key(record: TextRecord) -> Optional[ArticleKey]:
    """RETURNS (Optional[ArticleKey]): a JSONL record's `article` and `figure` fields (None without `article`)."""
    article = _text(record.meta.get("article"))
    return None if article is None else (article, _text(record.meta.get("figure")))


def captions_tsv_key(record: TextRecord) -> Optional[ArticleKey]:
    """RETURNS (Optional[ArticleKey]): a Bio-ID caption's `pmc_id`, and its `figure` without the panel."""
    article = _text(record.meta.get("pmc_id"))
    figure = _text(record.meta.get("figure"))
    return None if article is None else (article, None if figure is None else figure.split("-", 1)[0])


ARTICLE_KEYS: Dict[str, KeyFunction] = {
    "bioc-xml": bioc_key,
    "bioc-json": bioc_key,
    "jsonl": jsonl_key,
    "tsv": captions_tsv_key,
}


def article_key_function(corpus_format: str, context: bool = True) -> Optional[KeyFunction]:
    """RETURNS (Optional[KeyFunction]): how records of a format name their article; None without context or for a
    format without articles (`txt`)."""
    return ARTICLE_KEYS.get(corpus_format) if context else None


def shard_chunks(
    items: Iterable[CorpusItem], shard_size: int, key: Optional[KeyFunction] = None
) -> Iterator[List[CorpusItem]]:
    """Cut corpus items into shards of `shard_size` items, each shard extended to the end of its last article.

    key (Optional[KeyFunction]): a record's article (None: every record alone, shards of exactly `shard_size`).
    YIELDS (List[CorpusItem]): the shards' items, in order (bad records where they were read).
    """
    chunk: List[CorpusItem] = []
    last: Optional[ArticleKey] = None
    for item in items:
        if len(chunk) >= shard_size and not _continues(item, last, key):
            yield chunk
            chunk = []
        chunk.append(item)
        if isinstance(item, TextRecord):
            last = key(item) if key is not None else None
    if chunk:
        yield chunk


def _continues(item: CorpusItem, last: Optional[ArticleKey], key: Optional[KeyFunction]) -> bool:
    """Whether an item goes on the article of the record before it (a bad record inside an article does)."""
    if key is None or last is None:
        return False
    if not isinstance(item, TextRecord):
        return True
    return _same_article(last, key(item))


def record_keys(records: Sequence[TextRecord], key: Optional[KeyFunction]) -> Optional[List[Optional[ArticleKey]]]:
    """RETURNS (Optional[List[Optional[ArticleKey]]]): per record its article key; None without a key function."""
    return None if key is None else [key(record) for record in records]


def record_docs(
    nlp: Language, records: Sequence[TextRecord], keys: Optional[Sequence[Optional[ArticleKey]]] = None
) -> List[Doc]:
    """Make the docs of records, each run of records of one article carrying it as context (`doc._.article`).

    keys (Optional[Sequence[Optional[ArticleKey]]]): per record its (article, figure), None: alone (`record_keys`).
    RETURNS (List[Doc]): one doc per record, in order.
    """
    docs = [nlp.make_doc(record.text) for record in records]
    if keys is None:
        return docs
    if len(keys) != len(records):
        raise ValueError(f"{len(records)} records but {len(keys)} article keys")
    register_extensions()
    start = 0
    while start < len(records):
        end = start + 1
        while end < len(records) and keys[start] is not None and _same_article(keys[start], keys[end]):
            end += 1
        if end - start > 1:
            texts = [record.text for record in records[start:end]]
            figures = [k[1] if k is not None else None for k in keys[start:end]]
            shared = None if all(f is None for f in figures) else figures
            for i, doc in enumerate(docs[start:end]):
                doc._.article = {"texts": texts, "figures": shared, "index": i}
        start = end
    return docs


def _same_article(a: Optional[ArticleKey], b: Optional[ArticleKey]) -> bool:
    return a is not None and b is not None and a[0] == b[0]
