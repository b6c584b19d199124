"""One fusion of signals: how a KnowledgeBaseLinker ranks the names of one reference set for a batch of mentions.

For a batch of distinct mentions (`signals.Queries`):
1. the exact tier (`signals.exact`) finds the names matching each mention exactly, within the organisms it may
   link to (`signals.organism`); with `exact_short_cut` such a mention is not searched;
2. every other mention is searched by the signals with candidates (dense, then the scoring signals by their
   `pool_order`): the pool is the union of their candidates, then the exact matches;
3. every pool name gets the fused score `(1 − Σ wᵢ)·dense + Σ wᵢ·signalᵢ` over the scoring signals (word TF-IDF,
   character TF-IDF, fuzzy, each weighted by its `LinkerSettings` field), less `relational_penalty` for a name
   that is the mention plus a relational head (`signals.relational`: `Lc3 synthase` is not `LC3`), and less
   `discovered_penalty` for a name of kind `discovered` (`added_names`: a curator's accepted synonym);
4. names collapse to entities, ranked by (exact tier, assigned organism among exact matches, organisms naming the
   gene so (at most 2, `OrganismSignal.naming_organisms`), kind class, the mention a word of a longer name of the
   entity, kind priority, entity prior, fused score + organism bonus; see `exact_ranking`); an exact match's
   written score is 1.0. When all exact matches are of other organisms than the
   confidently assigned one, its names scoring at least `organism_over_exact_score`, or naming the mention plus a
   member suffix (`ATG16L` for yeast `Atg16`: `organisms.paralog_suffix`), rank with them
   (`OrganismSignal.over_exact`).
`mode="dense"` is the dense signal alone (the paper's retrieval).
Steps 1-3 read no organism context beyond the exact matches it leaves and the short-cut it decides, so their
result (the pool and its fused scores) is kept per mention string (`search_cache`): the same name under another
organism context is ranked again (step 4), not searched again.
5. the decision (`signals.nil`, switched by `nil_decision`) reads the ranked entities of each mention: the
   probability that its best entity is right, the link's score and whether it is kept at a threshold
   (`Fusion.verdicts`; without a decision stage the score is the best candidate's); with `link_tag_names` off,
   an epitope tag or reporter name (`HA`, `GFP`) is never kept; with `link_case_mismatch` off, a lower-case word
   whose exact matches are all symbols in capitals other than a gene's primary one (`simple` → the alias SIMPLE)
   is never kept (`text.case_forms`).
"""

from typing import Dict, List, NamedTuple, Optional, Sequence, Type, TypeVar

import numpy

from ..organisms.ranking import OrganismContext
from ..text.case_forms import case_mismatch, is_lowercase_word
from ..text.lines import strings_at
from ..text.query_forms import query_forms
from ..text.tag_names import is_tag_name
from .added_names import discovered_rows
from .candidate import Candidate
from .linker_parts import LinkerParts
from .rank_keys import RANK_KEYS, PoolNames, RankKey, rank_order
from .search_cache import SEARCH_CACHE_SIZE, SearchCache, SearchedPool, SearchKey, search_key
from .settings import LinkerSettings
from .signals import DECISIONS, SCORING_SIGNALS, Queries, Verdict, verdict
from .signals.base import OrganismScope, ScoringSignal
from .signals.dense import DenseSignal
from .signals.exact import ExactTier
from .signals.organism import OrganismSignal
from .signals.relational import RelationalNameSignal

S = TypeVar("S")


class Weighted(NamedTuple):
    """A scoring signal and its weight in the fused score."""

    signal: ScoringSignal
    weight: float


class Fusion:
    """The signals of one linker with one settings and mode, and how their evidence is combined.

    signals (List[Weighted]): the scoring signals in use (weight > 0 and their index present), in sum order.
    dense (DenseSignal): the dense signal; its weight is 1 minus the scoring signals' weights.
    exact (Optional[ExactTier]): the exact tier (None in dense mode or with `exact_match` off).
    organism (OrganismScope): the organism signal (restriction, orthologs, rank keys; `signals.organism`).
    relational (Optional[RelationalNameSignal]): the relational-name penalty (None: off).
    decision (Optional[Decision]): the decision stage in use (the first registered one available), or None.
    """

    def __init__(self, linker: LinkerParts, settings: LinkerSettings, mode: str) -> None:
        self.linker = linker
        self.settings = settings
        self.mode = mode
        hybrid = mode == "hybrid"
        reference = linker.reference_set
        self.signals: List[Weighted] = []
        for cls in SCORING_SIGNALS:
            signal = cls.from_linker(linker, settings, mode)
            if signal is not None:
                self.signals.append(Weighted(signal, float(getattr(settings, cls.weight_setting))))
        dense_weight = 1.0
        for weighted in self.signals:
            dense_weight -= weighted.weight
        self.dense_weight = dense_weight
        self.dense = DenseSignal(linker.index, linker.encode, settings.search_threads)
        self.exact = (
            ExactTier(linker.exact_names, reference, settings.exact_kind_priority, linker.tie_break_priors)
            if hybrid and settings.exact_match
            else None
        )
        self.organism: OrganismScope = OrganismSignal(
            reference.entity_taxa,
            reference.name_entity,
            settings.organism_weight,
            settings.organism_min_confidence,
            linker.ortholog_table if settings.organism_orthologs and hybrid else None,
            settings.organism_over_exact_score if hybrid else 1.0,
        )
        self.relational = RelationalNameSignal.from_linker(linker, settings, mode)
        # names of kind `discovered` (a curator's accepted synonyms: `added_names`) lose `discovered_penalty`
        self.discovered: Optional[numpy.ndarray] = None
        if settings.discovered_penalty > 0:
            rows = discovered_rows(reference.kinds)
            self.discovered = rows if rows.any() else None
        self.rank_keys: Sequence[RankKey] = RANK_KEYS
        stages = (cls.from_linker(linker, settings, mode) for cls in DECISIONS)
        self.decision = next((stage for stage in stages if stage is not None), None)
        # the organism-independent searches of recent mentions (off with the linker's cache: `cache_size` 0)
        self.searches = SearchCache(min(SEARCH_CACHE_SIZE, settings.cache_size))

    def signal(self, cls: Type[S]) -> Optional[S]:
        """RETURNS: the signal of this class in use, or None."""
        return next((w.signal for w in self.signals if isinstance(w.signal, cls)), None)

    def link(
        self, mentions: List[str], top_k: int, contexts: Sequence[Optional[OrganismContext]]
    ) -> List[List[Candidate]]:
        """Link a batch of distinct mentions (see the module doc). RETURNS: per mention, its top-k entities."""
        settings = self.settings
        hybrid = self.mode == "hybrid"
        # The searches and scores see the mention in the configured form (see query_forms); the exact tier
        # reads it as written.
        queries = Queries(mentions, query_forms(mentions, settings.query_form) if hybrid else mentions, contexts)
        if self.exact is not None:
            self.exact.match(queries, self.organism.allowed_rows)
        # With the short-cut, mentions that match names exactly are not searched (unless all their exact matches
        # are of other organisms than the assigned one: `OrganismSignal.foreign_exact_only`).
        searched = [
            not (bool(exact) and settings.exact_short_cut and not self.organism.foreign_exact_only(exact, context))
            for exact, context in zip(queries.exact, contexts)
        ]
        found = self.searched_pools(queries, searched)
        return [
            self.collapse(pool.pool(), pool.scores, queries.exact[row], top_k, contexts[row], queries.written[row])
            for row, pool in enumerate(found)
        ]

    def searched_pools(self, queries: Queries, searched: Sequence[bool]) -> List[SearchedPool]:
        """RETURNS (List[SearchedPool]): per mention, its pool and fused scores: kept from an earlier search of the
        same mention, exact matches and short-cut (`search_cache`), else searched now, all such mentions at once."""
        keys = [
            search_key(queries.written[row], queries.texts[row], searched[row], queries.exact[row])
            for row in range(len(queries))
        ]
        out: List[Optional[SearchedPool]] = [self.searches.get(key) for key in keys]
        todo: Dict[SearchKey, List[int]] = {}
        for row, key in enumerate(keys):
            if out[row] is None:
                todo.setdefault(key, []).append(row)
        if todo:
            first = [rows[0] for rows in todo.values()]
            batch = Queries(
                [queries.written[r] for r in first],
                [queries.texts[r] for r in first],
                [queries.contexts[r] for r in first],
            )
            batch.exact = [queries.exact[r] for r in first]
            batch.searched = [i for i, r in enumerate(first) if searched[r]]
            for (key, rows), pool in zip(todo.items(), self.search(batch)):
                self.searches.put(key, pool)
                for row in rows:
                    out[row] = pool
        return [pool for pool in out if pool is not None]

    def search(self, queries: Queries) -> List[SearchedPool]:
        """RETURNS (List[SearchedPool]): per mention, the union of the signals' candidates (for the searched
        mentions, `queries.searched`) and its exact matches (`queries.exact`), and their fused scores."""
        settings = self.settings
        pools: List[List[int]] = [[] for _ in range(len(queries))]
        searched = queries.searched
        found = [self.dense.candidates(queries, searched, settings.n_candidates)]
        if searched:
            for weighted in sorted(self.signals, key=lambda w: w.signal.pool_order):
                found.append(weighted.signal.candidates(queries, searched, settings.n_candidates))
        else:
            self.dense.encoded(queries)  # encodes the mentions with several exact matches
        for lists in found:
            if lists is None:
                continue
            for row, names in zip(searched, lists):
                pools[row].extend(names)
        for row, exact in enumerate(queries.exact):
            pools[row].extend(exact)
            pools[row] = list(dict.fromkeys(pools[row]))
        fused = self.fused_scores(queries, pools)
        return [SearchedPool.of(pool, scores) for pool, scores in zip(pools, fused)]

    def clear_cache(self) -> None:
        """Forget the searches kept (`search_cache`) and the name-words answers (`NameWords`)."""
        self.searches.clear()
        if self.exact is not None:
            self.exact.name_words.clear()

    def probabilities(
        self,
        mentions: Sequence[str],
        results: Sequence[Sequence[Candidate]],
        contexts: Optional[Sequence[Optional[OrganismContext]]] = None,
    ) -> Optional[numpy.ndarray]:
        """RETURNS (Optional[numpy.ndarray]): per mention, the decision stage's probability that its best candidate
        is right (None without a decision stage; 0 for a mention without candidates)."""
        if self.decision is None:
            return None
        contexts = list(contexts) if contexts is not None else [None] * len(mentions)
        return self.decision.probabilities(Queries(mentions, mentions, contexts), results)

    def verdicts(
        self,
        mentions: Sequence[str],
        results: Sequence[Sequence[Candidate]],
        contexts: Optional[Sequence[Optional[OrganismContext]]],
        threshold: float,
    ) -> List[Verdict]:
        """The decision on ranked results: per mention, the probability, the link's score and whether the best
        entity is kept at `threshold` (see `signals.base.verdict`); with `link_tag_names` off, a tag name is never kept,
        with `link_case_mismatch` off, a lower-case word matching only capitalised aliases (`text.case_forms`)."""
        probabilities = self.probabilities(mentions, results, contexts)
        out = [
            verdict(candidates, None if probabilities is None else float(probabilities[i]), threshold)
            for i, candidates in enumerate(results)
        ]
        if not self.settings.link_tag_names:
            out = [v._replace(keep=False) if v.keep and is_tag_name(m) else v for m, v in zip(mentions, out)]
        if not self.settings.link_case_mismatch:
            out = [
                v._replace(keep=False) if v.keep and self.case_vetoed(m, c) else v
                for m, v, c in zip(mentions, out, results)
            ]
        return out

    def case_vetoed(self, mention: str, candidates: Sequence[Candidate]) -> bool:
        """RETURNS (bool): whether `link_case_mismatch` is off, the best candidate is an exact-tier link (score 1.0)
        and the names the mention matches exactly read the lower-case word `mention` as a symbol in capitals only
        (`text.case_forms.case_mismatch`): the best entity's own matching names, or, for an entity the organism
        evidence put in their place (an ortholog, a close name), all of them. A link the decision never keeps."""
        if self.settings.link_case_mismatch or not candidates or candidates[0].score < 1.0 or self.exact is None:
            return False
        if not is_lowercase_word(mention):
            return False
        rows = list(self.exact.exact_names.lookup(mention))
        reference = self.linker.reference_set
        best = reference.entity_index(candidates[0].kb_id)
        own = [row for row in rows if int(reference.name_entity[row]) == best]
        names = self.exact.exact_names.names
        return case_mismatch(mention, [(names[row], reference.kinds[row]) for row in (own or rows)])

    def fused_scores(self, queries: Queries, pools: List[List[int]]) -> List[numpy.ndarray]:
        """RETURNS: per mention, the fused score of each pool name: dense first, then each scoring signal, less the
        relational-name penalty."""
        dense = self.dense.scores(queries, pools)
        parts = [(w.weight, w.signal.scores(queries, pools)) for w in self.signals]
        penalties = self.relational.penalties(queries, pools) if self.relational is not None else None
        out = []
        for row in range(len(pools)):
            scores = self.dense_weight * dense[row]
            for weight, values in parts:
                scores = scores + weight * values[row]
            if penalties is not None:
                scores = scores - penalties[row]
            if self.discovered is not None and len(pools[row]):
                found = self.discovered[numpy.asarray(pools[row], dtype=numpy.int64)]
                scores = scores - numpy.float32(self.settings.discovered_penalty) * found
            out.append(scores)
        return out

    def collapse(
        self,
        pool: List[int],
        scores: numpy.ndarray,
        exact: Dict[int, int],
        top_k: int,
        context: Optional[OrganismContext] = None,
        mention: str = "",
    ) -> List[Candidate]:
        """Names → entities. Each entity keeps its best name by the rank keys (`rank_keys.RANK_KEYS`: exact tier,
        assigned organism among exact matches, organisms naming its gene so, kind class, the mention a word of a
        longer name, kind priority of an exact match, prior, score + organism bonus), the earliest in the pool on
        ties; entities rank by the same keys, then by entity index. `mention` (as written) is read by the
        name-words key only."""
        reference = self.linker.reference_set
        pool, scores, stand_ins = self.organism.with_orthologs(pool, scores, exact, context)
        rows = numpy.asarray(pool, dtype=numpy.int64)
        scores = numpy.asarray(scores, dtype=numpy.float32)
        keep = self.organism.allowed(reference.name_entity[rows].astype(numpy.int64), context)
        if keep is not None:
            rows, scores = rows[keep], scores[keep]
            pool = rows.tolist()
        entities = reference.name_entity[rows].astype(numpy.int64)
        names_ranked = PoolNames(
            rows,
            scores,
            entities,
            pool,
            exact,
            context,
            mention,
            exact_tier=self.exact,
            organism=self.organism,
            reference=reference,
            stand_ins=stand_ins,
        )
        keys = tuple(rank_order(names_ranked, self.rank_keys))  # the last decides first
        tiers, counterparts = names_ranked.exact_keys().tiers, names_ranked.over_exact().counterparts
        by_name = numpy.lexsort((numpy.arange(len(rows)),) + keys)
        _, first = numpy.unique(entities[by_name], return_index=True)
        best = by_name[first]
        ranked = best[numpy.lexsort((entities[best],) + tuple(key[best] for key in keys))][:top_k]
        kb_ids = strings_at(reference.kb_ids, entities[ranked].tolist())
        names = strings_at(reference.names, rows[ranked].tolist())
        return [
            Candidate(kb_id, name, 1.0 if tiers[j] or counterparts[j] else round(min(1.0, float(scores[j])), 6))
            for kb_id, name, j in zip(kb_ids, names, ranked)
        ]
