"""The one predict path of a mention, spaCy-free: the component runs it, and so do `training/` (train_nil,
tune_nil, evaluate), so they link as the component does.

1. `prepare_requests`: for one text, each mention's long form (when the text, its figure's other panels or its
   article's other texts define it as an abbreviation, `long form (SF)`, else when the component's abbreviation
   lexicon knows it: `text.abbreviation_lexicon`) and its organism context
   (`organism_context`);
2. `link_requests`: for one reference set, a batch of requests linked (`KnowledgeBaseLinker.link`: signals →
   ranking) and decided (`KnowledgeBaseLinker.verdicts`: the NIL decision and the threshold). A mention with a long
   form is searched by it unless the mention is itself a name of the set and the long form is not, or the long form
   is the lexicon's guess for a tag name the set never links (`KnowledgeBaseLinker.searched_form`).
"""

from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Set

import numpy

from ..linker.candidate import Candidate
from ..linker.kb_linker import KnowledgeBaseLinker
from ..linker.signals import Verdict
from ..linker.signals.nil import decision_features
from ..organisms.assign import OrganismAssigner
from ..organisms.ranking import OrganismContext
from ..parts.decision import LinkDecision
from ..text.abbreviation_lexicon import AbbreviationLexicon
from ..text.abbreviations import defined_long_forms
from .article_context import ArticlePlace
from .organism_context import organism_contexts


class Mention(NamedTuple):
    """A mention routed to a reference set: its character offsets in the text, as written, and the set."""

    start: int
    end: int
    text: str
    kb: str
    cut_from: Optional[str] = None  # the token a component cut the mention from (`hTau` for `Tau`: nseen_glued_names)


class Request(NamedTuple):
    """What is linked for one mention."""

    kb: str
    text: str  # the mention as written
    context: Optional[OrganismContext]
    evidence: Optional[List[str]]  # the organism evidence, for mentions of a set with taxa
    long_form: Optional[str] = None  # the long form of the mention where it is a defined abbreviation
    guessed: bool = False  # the long form is the abbreviation lexicon's: no text of the context defines it


class TextRequests(NamedTuple):
    """The requests of one text's mentions, in order, and the text's organisms when they were assigned."""

    requests: List[Request]
    organisms: Optional[List[int]]


class Linked(NamedTuple):
    """A request's ranked candidates and the decision on them."""

    request: Request
    candidates: List[Candidate]
    verdict: Verdict
    searched: str  # the text that was linked: the mention or its long form


def prepare_requests(
    text: str,
    mentions: Sequence[Mention],
    has_taxa: Callable[[str], bool],
    assigner: Optional[OrganismAssigner],
    *,
    expand_abbreviations: bool = True,
    organisms: Optional[Sequence[int]] = None,
    article_texts: Optional[Sequence[str]] = None,
    figure_texts: Optional[Sequence[str]] = None,
    allowed: Optional[frozenset] = None,
    lexicon: Optional[AbbreviationLexicon] = None,
    article: Optional[ArticlePlace] = None,
) -> TextRequests:
    """The requests of the mentions of one text (see the module doc).

    has_taxa (Callable[[str], bool]): whether a reference set has taxa (its mentions get organism contexts).
    assigner (Optional[OrganismAssigner]): the organism assigner (None: no assignment).
    organisms, article_texts, figure_texts, allowed: see `organism_context.organism_contexts`.
    lexicon (Optional[AbbreviationLexicon]): long forms of the short forms no text of the context defines.
    article (Optional[ArticlePlace]): the text's article (`article_context`), read once for all of its texts: the
        context instead of `article_texts` and `figure_texts`, with the same result.
    """
    long_forms: Dict[str, str] = {}
    if expand_abbreviations and mentions:
        if article is not None:
            long_forms = article.context.long_forms(article.position, [m.text for m in mentions])
        else:
            long_forms = defined_long_forms(text, figure_texts, article_texts)
    guessed: Set[str] = set()
    if expand_abbreviations and lexicon is not None:
        for m in mentions:
            long_form = lexicon.get(m.text) if m.text not in long_forms else None
            if long_form is not None:
                long_forms[m.text] = long_form
                guessed.add(m.text)
    found = organism_contexts(
        text,
        [(m.start, m.end) for m in mentions],
        [has_taxa(m.kb) for m in mentions],
        assigner,
        organisms=organisms,
        article_texts=article_texts,
        figure_texts=figure_texts,
        allowed=allowed,
        forms=[m.cut_from for m in mentions],
        article=article,
    )
    requests = [
        Request(m.kb, m.text, o.context, o.evidence, long_forms.get(m.text), m.text in guessed)
        for m, o in zip(mentions, found.mentions)
    ]
    return TextRequests(requests, found.organisms)


def link_requests(
    linker: KnowledgeBaseLinker,
    requests: Sequence[Request],
    *,
    top_k: int,
    mode: str = "hybrid",
    decision: Optional[LinkDecision] = None,
) -> List[Linked]:
    """RETURNS (List[Linked]): the requests of one reference set linked in one batch, and the decision on each.

    decision (Optional[LinkDecision]): decides each link (None: the linker's own verdicts at threshold 0).
    """
    if not requests:
        return []
    texts = [linker.searched_form(r.text, r.long_form, r.guessed) for r in requests]
    contexts = [r.context for r in requests]
    results = linker.link(texts, top_k=top_k, mode=mode, organisms=contexts)
    verdicts = (decision or LinkDecision()).verdicts(linker, texts, results, contexts)
    return [Linked(r, c, v, t) for r, c, v, t in zip(requests, results, verdicts, texts)]


def request_features(linker: KnowledgeBaseLinker, linked: Sequence[Linked]) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): the NIL decision's feature rows of linked requests (`signals.nil.decision_features`)."""
    return decision_features(
        linker,
        [one.searched for one in linked],
        [one.candidates for one in linked],
        [one.request.context for one in linked],
    )
