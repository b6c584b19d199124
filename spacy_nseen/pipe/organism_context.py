"""The organism context of the mentions of one text: the assigner's verdict → `OrganismContext` per mention."""

from typing import Iterable, List, NamedTuple, Optional, Sequence, Tuple

from ..organisms.assign import OrganismAssigner, SpanOrganism
from ..organisms.ranking import OrganismContext
from .article_context import ArticlePlace


def organism_confidence(span: SpanOrganism) -> float:
    """RETURNS (float): the share of the assigned taxon in the mention's organism evidence, in [0, 1]."""
    if span.taxon is None:
        return 0.0
    total = sum(max(0.0, v) for v in span.scores.values())
    return round(max(0.0, span.scores.get(span.taxon, 0.0)) / total, 4) if total > 0 else 0.0


class MentionOrganism(NamedTuple):
    """The organism evidence of one mention, as the linker reads it."""

    context: Optional[OrganismContext]
    evidence: Optional[List[str]]


class TextOrganisms(NamedTuple):
    """Per mention its organism evidence; the text's organisms (most likely first) when they were assigned."""

    mentions: List[MentionOrganism]
    organisms: Optional[List[int]]


def organism_contexts(
    text: str,
    offsets: Sequence[Tuple[int, int]],
    has_taxa: Sequence[bool],
    assigner: Optional[OrganismAssigner],
    *,
    organisms: Optional[Sequence[int]] = None,
    article_texts: Optional[Iterable[str]] = None,
    figure_texts: Optional[Iterable[str]] = None,
    allowed: Optional[frozenset] = None,
    forms: Optional[Sequence[Optional[str]]] = None,
    article: Optional[ArticlePlace] = None,
) -> TextOrganisms:
    """The organism context of each mention of a text.

    offsets (Sequence[Tuple[int, int]]): the mentions' character offsets in `text`.
    has_taxa (Sequence[bool]): per mention, whether its reference set has taxa (only those are assigned).
    assigner (Optional[OrganismAssigner]): None: no assignment (only `allowed` restricts).
    organisms, article_texts, figure_texts: the text's known organisms, the other texts of its article and the
        other panel texts of its figure (`assign_text`).
    allowed (Optional[frozenset]): the taxa every mention may link to (the component's `organisms`).
    forms (Optional[Sequence[Optional[str]]]): per mention, the token it was cut from, if it was (`assign_text`).
    article (Optional[ArticlePlace]): the text's article, read once for all of its texts, instead of
        `article_texts` and `figure_texts` (the same result).
    """
    with_taxa = [i for i, flag in enumerate(has_taxa) if flag]
    assigned = {}
    found: Optional[List[int]] = None
    if with_taxa and assigner is not None:
        article_counts = figure_counts = scanned = None
        if article is not None:
            article_counts, figure_counts = article.context.organism_counts(article.position, assigner)
            scanned = article.context.text_scan(article.position, assigner)
        result = assigner.assign_text(
            text,
            [offsets[i] for i in with_taxa],
            organisms=organisms,
            article_texts=article_texts,
            article_counts=article_counts,
            figure_texts=figure_texts,
            figure_counts=figure_counts,
            forms=[forms[i] for i in with_taxa] if forms else None,
            scanned=scanned,
        )
        found = list(result.organisms)
        assigned = {
            i: (span.taxon, organism_confidence(span), span.evidence) for i, span in zip(with_taxa, result.spans)
        }
    out = []
    for i, flag in enumerate(has_taxa):
        taxon, confidence, evidence = assigned.get(i, (None, 0.0, None))
        context = OrganismContext(taxon, confidence, allowed) if flag and (taxon is not None or allowed) else None
        out.append(MentionOrganism(context, evidence if flag else None))
    return TextOrganisms(out, found)
