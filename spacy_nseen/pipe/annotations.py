"""What the `nseen_linker` writes onto a doc: ids, scores, candidates, organisms and cross-references."""

from typing import Dict, List, Mapping, NamedTuple, Optional

from spacy.tokens import Doc, Span

from ..linker.candidate import Candidate
from ..linker.signals import Verdict
from ..organisms.ranking import OrganismContext


class EntityLink(NamedTuple):
    """What the linker found for one routed entity."""

    ent_index: int  # position in doc.ents
    kb: str
    candidates: List[Candidate]
    probability: Optional[float]  # the NIL model's probability that candidates[0] is right; None without one
    context: Optional[OrganismContext]
    evidence: Optional[List[str]]
    verdict: Verdict  # the decision: the link's score and whether candidates[0] is kept
    searched: Optional[str] = None  # the long form searched instead of the mention (an abbreviation), or None


class DocLinks(NamedTuple):
    """The links of one doc and, when organisms were assigned, the document's organisms (most likely first)."""

    links: List[EntityLink]
    organisms: Optional[List[int]]


def write_links(
    doc: Doc, prediction: DocLinks, xrefs: Mapping[str, Mapping[str, Dict[str, str]]], primary_xref: Dict[str, str]
) -> None:
    """Write a doc's links onto its entity spans and tokens (`kb_id` or the `primary_xref` id, `kb_score`,
    `kb_candidates`, `kb_taxon`, `kb_taxon_evidence`, `kb_xrefs`, `kb_searched`) and its organisms onto
    `doc._.organisms`.

    xrefs (Mapping[str, Mapping[str, Dict[str, str]]]): per reference set, kb_id → database → ids.
    primary_xref (Dict[str, str]): label → the database whose id is written as `kb_id`.
    """
    if prediction.organisms is not None and doc._.organisms is None:
        doc._.organisms = list(prediction.organisms)
    if not prediction.links:
        return
    ents = list(doc.ents)
    for link in prediction.links:
        ent = ents[link.ent_index]
        candidates = link.candidates or []
        score = link.verdict.score
        best = candidates[0] if link.verdict.keep else None
        found = xrefs[link.kb].get(best.kb_id) if best is not None else None
        kb_id = best.kb_id if best is not None else None
        primary = primary_xref.get(ent.label_)
        if kb_id is not None and primary and found and primary in found:
            kb_id = f"{primary}:{found[primary].split('|')[0]}"
        new = Span(doc, ent.start, ent.end, label=ent.label, kb_id=kb_id or "", span_id=ent.id)
        new._.kb_id = kb_id
        new._.kb_score = None if score is None else float(score)
        new._.kb_candidates = [(c.kb_id, c.name, float(c.score)) for c in candidates]
        new._.kb_taxon = link.context.taxon if link.context is not None else None
        new._.kb_taxon_evidence = list(link.evidence) if link.evidence else None
        new._.kb_xrefs = dict(found) if found else None
        new._.kb_searched = link.searched
        ents[link.ent_index] = new
    doc.ents = ents
