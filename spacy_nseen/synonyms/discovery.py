"""Synonym discovery: for mention strings the reference set does not name, the best entity by string and context.

For each query mention the linker (the NSEEN encoder + its sparse and exact signals) proposes `top_k` entities by
the string alone; entities the mention already names are dropped. Each remaining candidate gets
- a **string score**: the cosine of the NSEEN encoder's vectors of the mention and the candidate's best-matching
  name (the paper's SRN baseline);
- a **context score**: SynonymNet's match of the mention's contexts with the entity's contexts (those of the
  corpus strings that are names of the entity), NaN when either has none;
- a **score**: both combined by the logistic regression fitted on held-out synonym pairs (`ScoreCombiner`), the
  calibrated probability that the mention names the entity.
- a **linker score**: the linker's own score (encoder, sparse and exact signals fused).
Candidates are ranked by the linker score + `context_weight` × the context score (the weight chosen on even Bio-ID
documents); `discover` keeps the best per mention as a `ReviewRow` with its calibrated score, sorted by it.
"""

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set

import numpy
import torch
from thinc.api import Model

from ..linker.kb_linker import KnowledgeBaseLinker
from .combination import ScoreCombiner
from .context_layer import encode_contexts, match_scores
from .contexts import MentionContext, MentionStats
from .name_lookup import NameLookup
from .review_file import ReviewRow

NAN = float("nan")


@dataclass(frozen=True)
class ScoredCandidate:
    """One proposed entity for a mention, with its scores."""

    kb_id: str
    name: str
    linker_score: float
    string_score: float
    context_score: float
    score: float
    rank_score: float


@dataclass
class DiscoverySettings:
    """Which mentions are queries and how many candidates each gets.

    top_k (int): string candidates per mention (the linker's).
    min_mentions (int): occurrences a mention needs in the corpus.
    max_link_probability (float): a mention that names an entity is still a query when the pipeline linked it
        with a mean probability below this (0: only mentions that name no entity).
    max_entities (int): corpus strings naming more entities don't lend their contexts to them (too ambiguous).
    n_examples (int): example contexts per review row.
    """

    top_k: int = 10
    min_mentions: int = 2
    max_link_probability: float = 0.0
    max_entities: int = 6
    n_examples: int = 3


def entity_contexts(
    stats: Dict[str, MentionStats], lookup: NameLookup, labels: Optional[Set[str]], max_entities: int, per_entity: int
) -> Dict[str, List[MentionContext]]:
    """RETURNS (Dict[str, List[MentionContext]]): kb_id -> up to `per_entity` contexts of the corpus strings that
    name it (taken in turn from each string, most frequent string first)."""
    strings: Dict[str, List[MentionStats]] = {}
    for item in stats.values():
        if labels is not None and item.label not in labels:
            continue
        entities = lookup.entities_of(item.mention)
        if 0 < len(entities) <= max_entities:
            for kb_id in entities:
                strings.setdefault(kb_id, []).append(item)
    out: Dict[str, List[MentionContext]] = {}
    for kb_id, items in strings.items():
        items.sort(key=lambda item: (-item.n_mentions, item.mention))
        pooled: List[MentionContext] = []
        depth = 0
        while len(pooled) < per_entity and any(depth < len(item.contexts) for item in items):
            pooled.extend(item.contexts[depth] for item in items if depth < len(item.contexts))
            depth += 1
        out[kb_id] = pooled[:per_entity]
    return out


class SynonymScorer:
    """Scores (mention, entity) candidates by string and context.

    linker (KnowledgeBaseLinker): the reference set's linker (candidates and the string encoder).
    lookup (NameLookup): the reference set's names.
    model (Optional[Model]): the SynonymNet layer (None: string scores only).
    combiner (ScoreCombiner): the calibrated combination.
    contexts_of_entity (Dict[str, List[MentionContext]]): each entity's contexts (`entity_contexts`).
    top_k (int): string candidates per mention.
    context_weight (float): the ranking of a mention's candidates: the linker's score + context_weight × the
        context score (0: the linker's order; chosen on even Bio-ID documents, `evaluate_missing`).
    """

    def __init__(
        self,
        linker: KnowledgeBaseLinker,
        lookup: NameLookup,
        model: Optional[Model],
        combiner: ScoreCombiner,
        contexts_of_entity: Dict[str, List[MentionContext]],
        top_k: int = 10,
        context_weight: float = 0.0,
    ) -> None:
        self.context_weight = context_weight
        self.linker = linker
        self.lookup = lookup
        self.model = model
        self.combiner = combiner
        self.contexts_of_entity = contexts_of_entity
        self.top_k = top_k
        self.entity_vectors: Dict[str, torch.Tensor] = {}

    def candidates(self, mentions: Sequence[str]) -> List[List[ScoredCandidate]]:
        """RETURNS (List[List[ScoredCandidate]]): per mention, the linker's candidates it does not yet name, with
        their string scores (context and combined scores not yet set)."""
        linked = self.linker.link(list(mentions), top_k=self.top_k)
        texts = list(mentions) + [c.name for cands in linked for c in cands]
        unique = list(dict.fromkeys(texts))
        vectors = self.linker.encode(unique)
        row = {text: i for i, text in enumerate(unique)}
        out = []
        for mention, cands in zip(mentions, linked):
            found = []
            for c in cands:
                if self.lookup.names_entity(mention, c.kb_id):
                    continue
                string = float(vectors[row[mention]] @ vectors[row[c.name]])
                found.append(ScoredCandidate(c.kb_id, c.name, float(c.score), string, NAN, NAN, float(c.score)))
            out.append(found)
        return out

    def encoded_entities(self, kb_ids: Sequence[str]) -> List[torch.Tensor]:
        """RETURNS (List[torch.Tensor]): the encoded contexts of entities (cached)."""
        assert self.model is not None
        todo = [k for k in dict.fromkeys(kb_ids) if k not in self.entity_vectors]
        if todo:
            encoded = encode_contexts(self.model, [self.contexts_of_entity.get(k, []) for k in todo])
            self.entity_vectors.update(zip(todo, encoded))
        return [self.entity_vectors[k] for k in kb_ids]

    def score(
        self, contexts: Sequence[Sequence[MentionContext]], candidates: Sequence[Sequence[ScoredCandidate]]
    ) -> List[List[ScoredCandidate]]:
        """Add context and combined scores; each list sorted best first.

        contexts (Sequence[Sequence[MentionContext]]): per mention, its contexts.
        candidates (Sequence[Sequence[ScoredCandidate]]): per mention, from `candidates`.
        RETURNS (List[List[ScoredCandidate]]): per mention, the scored candidates.
        """
        context_scores: List[numpy.ndarray] = [numpy.full(len(c), numpy.nan) for c in candidates]
        if self.model is not None:
            mention_vectors = encode_contexts(self.model, contexts)
            first, second, where = [], [], []
            kb_ids = [c.kb_id for cands in candidates for c in cands]
            entity_vectors = dict(zip(kb_ids, self.encoded_entities(kb_ids)))
            for i, cands in enumerate(candidates):
                for j, c in enumerate(cands):
                    first.append(mention_vectors[i])
                    second.append(entity_vectors[c.kb_id])
                    where.append((i, j))
            if first:
                scores = match_scores(self.model, first, second)
                for (i, j), value in zip(where, scores):
                    context_scores[i][j] = float(value)
        out = []
        for cands, values in zip(candidates, context_scores):
            scored = [
                ScoredCandidate(
                    c.kb_id,
                    c.name,
                    c.linker_score,
                    c.string_score,
                    float(v),
                    self.combiner.probability(c.string_score, float(v)),
                    c.linker_score + (0.0 if numpy.isnan(v) else self.context_weight * float(v)),
                )
                for c, v in zip(cands, values)
            ]
            scored.sort(key=lambda c: -c.rank_score)  # stable: ties keep the linker's order
            out.append(scored)
        return out


def query_mentions(
    stats: Dict[str, MentionStats], lookup: NameLookup, labels: Optional[Set[str]], settings: DiscoverySettings
) -> List[str]:
    """RETURNS (List[str]): the mentions to propose entities for (most frequent first): of the labels, seen at least
    `min_mentions` times, naming no entity (or linked with a mean probability below `max_link_probability`)."""
    out = []
    for item in stats.values():
        if (labels is not None and item.label not in labels) or item.n_mentions < settings.min_mentions:
            continue
        if lookup.is_name(item.mention):
            link = item.best_link()
            if link is None or link[2] >= settings.max_link_probability:
                continue
        out.append(item.mention)
    out.sort(key=lambda m: (-stats[m].n_mentions, m))
    return out


def discover(
    stats: Dict[str, MentionStats],
    scorer: SynonymScorer,
    kb: str,
    labels: Optional[Set[str]],
    settings: DiscoverySettings,
    batch_size: int = 256,
) -> List[ReviewRow]:
    """RETURNS (List[ReviewRow]): per query mention with a candidate, its best entity, highest score first."""
    queries = query_mentions(stats, scorer.lookup, labels, settings)
    rows: List[ReviewRow] = []
    for start in range(0, len(queries), batch_size):
        batch = queries[start : start + batch_size]
        scored = scorer.score([stats[m].contexts for m in batch], scorer.candidates(batch))
        for mention, cands in zip(batch, scored):
            if not cands:
                continue
            best = cands[0]
            item = stats[mention]
            examples = item.contexts[: settings.n_examples]
            rows.append(
                ReviewRow(
                    mention=mention,
                    kb=kb,
                    kb_id=best.kb_id,
                    entity_name=scorer.lookup.display_name(best.kb_id) or best.name,
                    score=best.score,
                    string_score=best.string_score,
                    context_score=best.context_score,
                    n_mentions=item.n_mentions,
                    n_documents=item.n_documents,
                    examples=[c.marked for c in examples],
                    documents=[c.doc_id for c in examples],
                )
            )
    rows.sort(key=lambda row: (-row.score, -row.n_mentions, row.mention))
    return rows
