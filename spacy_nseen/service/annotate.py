"""POST /v1/annotate: texts or a BioC collection → the records `spacy-nseen annotate` writes
(`corpus.doc_output.annotated_record`), one schema for both."""

import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from spacy.tokens import Doc

from ..corpus.bioc import read_bioc_json, read_bioc_xml
from ..corpus.doc_output import annotated_record
from ..corpus.records import BadRecord, TextRecord
from ..pipe.article import article_docs
from .errors import ServiceError, too_large
from .pipeline import ServicePipeline
from .schemas import AnnotateRequest
from .settings import ServiceLimits


def bioc_records(text: str, bioc_format: str) -> Tuple[List[TextRecord], List[BadRecord]]:
    """Read a BioC collection sent in a request (through a temporary file the service names itself, so the
    readers of `annotate` read it; no request field is ever a path).

    text (str): The collection, XML or JSON.
    bioc_format (str): `xml`, `json` or `auto` (XML when the text starts with `<`).
    RETURNS (Tuple[List[TextRecord], List[BadRecord]]): The passages and the parts that could not be read.
    """
    if bioc_format == "auto":
        bioc_format = "xml" if text.lstrip().startswith("<") else "json"
    reader = read_bioc_xml if bioc_format == "xml" else read_bioc_json
    with tempfile.TemporaryDirectory(prefix="nseen-bioc-") as tmp:
        path = Path(tmp) / f"request.{bioc_format}"
        path.write_text(text, encoding="utf-8")
        try:
            items = list(reader(path))
        except Exception as err:  # a collection of the wrong shape (CorpusError) or JSON of another kind
            raise ServiceError(422, f"bioc: not a BioC {bioc_format.upper()} collection ({err})") from None
    records = [item for item in items if isinstance(item, TextRecord)]
    # the temporary file's name means nothing to the caller
    bad = [BadRecord(b.position.replace(path.name, "bioc"), b.problem) for b in items if isinstance(b, BadRecord)]
    if not records:
        problems = "; ".join(f"{b.position}: {b.problem}" for b in bad) or "it has no passage with text"
        raise ServiceError(422, f"bioc: no text to annotate ({problems})")
    return records, bad


def check_encodable(text: str, where: str) -> None:
    """RAISES (ServiceError): 422 when `text` holds a lone surrogate (a `\\udXXX` escape), which is no character."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise ServiceError(
            422, f"{where}: character {err.start} is a lone surrogate (\\u{ord(text[err.start]):04x}), not text"
        ) from None


def request_records(request: AnnotateRequest, limits: ServiceLimits) -> Tuple[List[TextRecord], List[BadRecord]]:
    """RETURNS (Tuple[List[TextRecord], List[BadRecord]]): The records of a request, checked against the limits.
    RAISES (ServiceError): 422 for a request of the wrong shape, 413 past a limit."""
    if (request.texts is None) == (request.bioc is None):
        raise ServiceError(422, "give either `texts` (a list of strings) or `bioc` (a BioC collection), not both")
    bad: List[BadRecord] = []
    if request.texts is not None:
        if not request.texts:
            raise ServiceError(422, "texts is empty: give at least one text")
        if len(request.texts) > limits.max_texts:
            raise too_large("texts", len(request.texts), limits.max_texts, "texts")
        ids = request.ids if request.ids is not None else [str(i + 1) for i in range(len(request.texts))]
        if len(ids) != len(request.texts):
            raise ServiceError(
                422, f"ids has {len(ids)} items but texts has {len(request.texts)}: give one id per text"
            )
        records = [TextRecord(i, t) for i, t in zip(ids, request.texts)]
    else:
        assert request.bioc is not None
        check_encodable(request.bioc, "bioc")
        if request.ids is not None:
            raise ServiceError(422, "ids go with texts; a BioC collection has its own document ids")
        records, bad = bioc_records(request.bioc, request.bioc_format)
        if len(records) > limits.max_texts:
            raise too_large("bioc", len(records), limits.max_texts, "passages")
    for i, record in enumerate(records):
        check_encodable(record.text, f"text {i} (id {record.id!r})")
        if not record.text.strip():
            raise ServiceError(422, f"text {i} (id {record.id!r}) is empty: remove it or give its text")
        if len(record.text) > limits.max_text_chars:
            raise too_large(f"text {i} (id {record.id!r})", len(record.text), limits.max_text_chars, "characters")
    if request.figures is not None and len(request.figures) != len(records):
        raise ServiceError(
            422, f"figures has {len(request.figures)} items but there are {len(records)} texts: give one per text"
        )
    return records, bad


def make_docs(
    service: ServicePipeline,
    records: Sequence[TextRecord],
    article: bool,
    figures: Optional[Sequence[Optional[str]]],
    organisms: Optional[List[int]],
) -> List[Doc]:
    """RETURNS (List[Doc]): A doc per record; with `article`, the records of one document (all texts, or one
    BioC document's passages) carry each other as context (`pipe.article.article_docs`)."""
    nlp = service.nlp
    if not article:
        docs = [nlp.make_doc(r.text) for r in records]
    else:
        groups: Dict[Any, List[int]] = {}
        for i, record in enumerate(records):
            groups.setdefault(record.meta.get("document"), []).append(i)
        docs = [None] * len(records)  # type: ignore[list-item]  # every slot is filled below
        for rows in groups.values():
            group_figures = [figures[i] for i in rows] if figures is not None else None
            for i, doc in zip(rows, article_docs(nlp, [records[i].text for i in rows], group_figures)):
                docs[i] = doc
    if organisms is not None:
        for doc in docs:
            doc._.organisms = list(organisms)
    return docs


def annotate_records(
    service: ServicePipeline,
    records: Sequence[TextRecord],
    article: bool = False,
    figures: Optional[Sequence[Optional[str]]] = None,
    organisms: Optional[List[int]] = None,
) -> List[Dict[str, Any]]:
    """Run the pipeline on records (on the pipeline thread).

    RETURNS (List[Dict[str, Any]]): The annotated records, in order.
    """
    docs = make_docs(service, records, article, figures, organisms)
    return [annotated_record(r, doc) for r, doc in zip(records, service.nlp.pipe(docs))]
