"""The annotations of a processed `Doc` as a JSON-ready dict: entities with ids, scores and candidates, and
the organism / cross-reference fields when the components that set them are present."""

from typing import Any, Dict, List

from spacy.tokens import Doc, Span

from .records import TextRecord

# Span extensions written when registered (by nseen_linker and the species / NIL work), under these keys.
SPAN_FIELDS = ("kb_id", "kb_score", "kb_candidates", "kb_taxon", "kb_taxon_evidence", "kb_xrefs", "kb_searched")
SCORE_DIGITS = 6


def _plain(value: Any) -> Any:
    """Tuples → lists, floats rounded, numpy scalars → Python numbers (so JSON is stable across runs)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float):
        return round(value, SCORE_DIGITS)
    return value


def entity_dict(ent: Span) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): One entity: character offsets, text, label and the registered kb fields."""
    entity: Dict[str, Any] = {"start": ent.start_char, "end": ent.end_char, "text": ent.text, "label": ent.label_}
    for name in SPAN_FIELDS:
        if Span.has_extension(name):
            entity[name] = _plain(getattr(ent._, name))
    return entity


def annotated_record(record: TextRecord, doc: Doc) -> Dict[str, Any]:
    """The output of one record.

    record (TextRecord): The input record.
    doc (Doc): The processed doc of `record.text`.
    RETURNS (Dict[str, Any]): `{"id", "text", "meta", "entities"}` and `organisms` when `Doc._.organisms` exists.
    """
    entities: List[Dict[str, Any]] = [entity_dict(ent) for ent in doc.ents]
    result: Dict[str, Any] = {"id": record.id, "text": record.text, "meta": record.meta, "entities": entities}
    if Doc.has_extension("organisms"):
        result["organisms"] = _plain(doc._.organisms)
    return result
