"""POST /v1/link: mention strings (with a label or reference set, optional organism and context) → ranked
candidates, the NIL verdict and the organism evidence, through the component's own predict path
(`pipe.predict.prepare_requests` and `link_requests`)."""

from typing import Any, Dict, List, Optional, Tuple

from ..organisms.lexicon import organism_name
from ..pipe.predict import Mention, Request, link_requests, prepare_requests
from .errors import ServiceError, too_large
from .organisms import resolve_organism
from .pipeline import ServicePipeline
from .schemas import LinkRequest
from .settings import ServiceLimits


def route_mention(service: ServicePipeline, label: Optional[str], kb: Optional[str], where: str) -> str:
    """RETURNS (str): The reference set a mention goes to. RAISES (ServiceError): 422 naming the choices."""
    linker = service.linker
    if kb is not None:
        if kb not in linker.kb_names:
            raise ServiceError(422, f"{where}.kb: unknown reference set {kb!r}; use one of {linker.kb_names}")
        if label is not None and linker.kbs.get(label) != kb:
            raise ServiceError(422, f"{where}: label {label!r} is not routed to {kb!r}; give one of them")
        return kb
    if label is None:
        raise ServiceError(422, f"{where}: give a label (one of {sorted(linker.kbs)}) or a kb ({linker.kb_names})")
    if label not in linker.kbs:
        raise ServiceError(422, f"{where}.label: the pipeline links no {label!r}; use one of {sorted(linker.kbs)}")
    return linker.kbs[label]


def checked_mentions(
    service: ServicePipeline, request: LinkRequest, limits: ServiceLimits
) -> List[Tuple[str, Optional[int], str, str]]:
    """RETURNS (List[Tuple[str, Optional[int], str, str]]): Per mention: its reference set, its organism's taxon,
    its text and its context text. RAISES (ServiceError): 413 past `max_mentions`, 422 for a bad mention."""
    if not request.mentions:
        raise ServiceError(422, "mentions is empty: give at least one mention")
    if len(request.mentions) > limits.max_mentions:
        raise too_large("mentions", len(request.mentions), limits.max_mentions, "mentions")
    checked = []
    for i, mention in enumerate(request.mentions):
        where = f"mentions[{i}]"
        text = mention.text.strip()
        if not text:
            raise ServiceError(422, f"{where}.text is empty: give the mention's text")
        context = mention.context or ""
        if len(text) + len(context) > limits.max_text_chars:
            raise too_large(where, len(text) + len(context), limits.max_text_chars, "characters")
        for value, field in ((text, "text"), (context, "context")):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ServiceError(422, f"{where}.{field} holds a lone surrogate escape, not text") from None
        kb = route_mention(service, mention.label, mention.kb, where)
        taxon = None
        if mention.organism is not None:
            taxon = resolve_organism(mention.organism, f"{where}.organism", service.allowed_organisms)
        checked.append((kb, taxon, text, context))
    return checked


def link_mentions(
    service: ServicePipeline, mentions: List[Tuple[str, Optional[int], str, str]], top_k: Optional[int]
) -> List[Dict[str, Any]]:
    """Link checked mentions (on the pipeline thread): each is prepared as the component prepares a mention of
    its text (`context + " " + text`, the mention last), then each reference set's are linked in one batch.

    RETURNS (List[Dict[str, Any]]): One `LinkResult` dict per mention, in order.
    """
    component = service.linker
    assigner = component.organism_assigner if component.assign_organisms else None
    allowed = frozenset(component.organisms) if component.organisms else None
    by_kb: Dict[str, List[Tuple[int, Request]]] = {}
    for i, (kb, taxon, text, context) in enumerate(mentions):
        full = f"{context} {text}" if context else text
        start = len(full) - len(text)
        prepared = prepare_requests(
            full,
            [Mention(start, len(full), text, kb)],
            lambda name: component.linkers[name].reference_set.entity_taxa is not None,
            assigner,
            expand_abbreviations=component.ranker_for(kb).expand_abbreviations,
            organisms=[taxon] if taxon is not None else None,
            allowed=allowed,
            lexicon=component.abbreviation_lexicon,
        )
        by_kb.setdefault(kb, []).append((i, prepared.requests[0]))
    results: List[Dict[str, Any]] = [{} for _ in mentions]
    for kb, items in by_kb.items():
        linker = component.linkers[kb]
        decision = component.decision_for(kb)
        linked = link_requests(
            linker,
            [request for _, request in items],
            top_k=top_k or component.top_k,
            mode=component.ranker_for(kb).mode,
            decision=decision,
        )
        for (i, request), one in zip(items, linked):
            best = one.candidates[0] if one.verdict.keep and one.candidates else None
            organism = request.context
            results[i] = {
                "text": request.text,
                "kb": kb,
                "searched": one.searched,
                "kb_id": best.kb_id if best is not None else None,
                "nil": best is None,
                "probability": one.verdict.probability,
                "score": one.verdict.score,
                "threshold": decision.threshold_for(linker),
                "candidates": [{"kb_id": c.kb_id, "name": c.name, "score": float(c.score)} for c in one.candidates],
                "xrefs": linker.xrefs.get(best.kb_id) if best is not None else None,
                "organism": None
                if organism is None
                else {
                    "taxon": organism.taxon,
                    "name": organism_name(organism.taxon) if organism.taxon is not None else None,
                    "confidence": organism.confidence,
                    "evidence": list(request.evidence or []),
                },
            }
    return results
