"""Linking strings to one reference set: encoder + Annoy index + exact-match short-cut + sparse re-rank.

This module knows nothing of spaCy. For each mention (NSEEN §3.3, Algorithm 3):
1. exact match: names whose strict key (then loose key) equals the mention's rank first, score 1.0;
2. dense: the `n_candidates` nearest reference names in the embedding space (Annoy);
3. hybrid (optional, BioSyn-style): the `n_candidates` best names by character n-gram TF-IDF join the
   pool and every candidate name is scored (1 − w)·cosine + w·tfidf;
4. names collapse to their entities (an entity scores its best name); the top-k distinct entities remain.
`mode="dense"` skips 1 and 3: pure embedding nearest neighbours, as in the paper.
"""
import copy
from collections import OrderedDict
from typing import Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

import numpy
import scipy.sparse as sp
from rapidfuzz.distance import Indel, JaroWinkler
from rapidfuzz.process import cpdist
from thinc.api import Model

from .encoder_layer import PRECISIONS, encode_names
from .exact_fill import number_variants, without_common_terms
from .exact_names import ExactNameIndex
from .exact_ranking import KIND_PRIORITIES, entity_priors, kind_ranks
from .linker.settings import EXACT_FILLS, MODES, IndexSettings, LinkerSettings
from .index_build import build_parts
from .name_index import AnnoyNameIndex
from .name_normalization import strict_key
from .ngram_tfidf import CharNgramTfidf
from .nil_decision import NilModel, mention_features
from .organism_ranking import OrganismContext, allowed_mask, organism_match
from .query_forms import query_forms
from .text_lines import strings_at
from .token_index import NameTokenIndex
from .reference_set import ReferenceSet
from .sparse_cosine import top_k_postings

MAX_CACHED_LENGTH = 256
# Name kinds preferred when several entities match a mention exactly (lower is better).
# (See `exact_ranking` for the other tables and the `exact_kind_priority` / `exact_tie_break` settings.)
KIND_PRIORITY = {k: v for k, v in KIND_PRIORITIES["default"].items() if k != "*"}


class Candidate(NamedTuple):
    """One linked entity: its id, the best-matching reference name and a score (higher is better)."""

    kb_id: str
    name: str
    score: float


class TaxonLookup:
    """kb_id → NCBI taxon id of a multi-organism reference set (a dict-like view for `mention_features`)."""

    def __init__(self, reference_set: ReferenceSet) -> None:
        self.reference_set = reference_set

    def get(self, kb_id: str, default: Optional[int] = None) -> Optional[int]:
        taxon = self.reference_set.taxon_of(kb_id)
        return default if taxon is None else taxon


class KnowledgeBaseLinker:
    """Links mention strings to the entities of one reference set.

    name (str): the reference set's name ("uniprot", "chebi", ...).
    encoder (Model): the `spacy_nseen.CharBiLSTMEncoder.v1` layer, initialised.
    reference_set (ReferenceSet): the entities and names.
    index (AnnoyNameIndex): the name vectors.
    tfidf (Optional[CharNgramTfidf]): the sparse scorer (needed for hybrid mode with sparse_weight > 0).
    settings (LinkerSettings): search settings.
    """

    def __init__(
        self,
        name: str,
        encoder: Model,
        reference_set: ReferenceSet,
        index: AnnoyNameIndex,
        tfidf: Optional[CharNgramTfidf] = None,
        settings: Optional[LinkerSettings] = None,
        exact_names: Optional[ExactNameIndex] = None,
        tokens: Optional[NameTokenIndex] = None,
    ) -> None:
        if index.n_items != len(reference_set):
            raise ValueError(f"the index holds {index.n_items} names, the reference set {len(reference_set)}")
        self.name = name
        self.encoder = encoder
        self.reference_set = reference_set
        self.index = index
        self.tfidf = tfidf
        self.tokens = tokens
        self.settings = settings or LinkerSettings()
        # The keys of every name are computed here unless a saved look-up is given (see linker_io).
        self.exact_names = exact_names if exact_names is not None else ExactNameIndex.build(reference_set.names)
        self._cache: "OrderedDict[Tuple[str, int, str, Optional[OrganismContext]], List[Candidate]]" = OrderedDict()
        self.build_seconds: Dict[str, float] = {}
        # Per-entity values for exact_tie_break="prior" (e.g. ChEBI star levels; see exact_ranking).
        self.entity_prior: Optional[numpy.ndarray] = None
        # The NIL decision (None: the best candidate's score is the link's score) and the entities'
        # cross-references, both saved with the linker (see nil_decision, xrefs).
        self.nil_model: Optional["NilModel"] = None
        self.xrefs: Dict[str, Dict[str, str]] = {}

    @classmethod
    def build(
        cls,
        name: str,
        encoder: Model,
        reference_set: ReferenceSet,
        *,
        n_trees: int = IndexSettings.n_trees,
        search_k: int = IndexSettings.search_k,
        seed: int = IndexSettings.seed,
        settings: Optional[LinkerSettings] = None,
        with_tfidf: bool = True,
        build_precision: Optional[str] = None,
    ) -> "KnowledgeBaseLinker":
        """Embed every reference name, build the Annoy index, the sparse indexes and the exact-match keys.

        A second thread fits the sparse indexes and keys, then helps encode (see `index_build`).
        build_precision (Optional[str]): encoder precision used for the reference names only ("fp32",
            "bf16", "int8"; None: the encoder's own); mentions are still encoded at the encoder's precision.
        The seconds of each part are in `linker.build_seconds`.
        """
        if build_precision is not None and build_precision not in PRECISIONS:
            raise ValueError(f"build_precision must be one of {PRECISIONS} or None, got {build_precision!r}")
        parts = build_parts(encoder, reference_set.names, n_trees=n_trees, search_k=search_k, seed=seed,
                            with_sparse=with_tfidf, precision=build_precision)
        linker = cls(name, encoder, reference_set, parts.index, parts.tfidf, settings, exact_names=parts.exact_names,
                     tokens=parts.tokens)
        linker.build_seconds = parts.seconds
        return linker

    def encode(self, strings: Sequence[str]) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): L2-normalised float32 vectors of the strings."""
        return encode_names(self.encoder, list(strings))

    def with_settings(self, settings: LinkerSettings) -> "KnowledgeBaseLinker":
        """A linker sharing this one's encoder, reference set and indexes, with other search settings."""
        twin = copy.copy(self)
        twin.settings = settings
        twin._cache = OrderedDict()
        return twin

    def clear_cache(self) -> None:
        self._cache.clear()

    def link(
        self,
        mentions: Sequence[str],
        top_k: int = 5,
        mode: str = "hybrid",
        organisms: Optional[Sequence[Optional[OrganismContext]]] = None,
    ) -> List[List[Candidate]]:
        """Link each mention to its top-k distinct entities, best first.

        mentions (Sequence[str]): the mention strings (any Unicode; empty strings get no candidates).
        top_k (int): entities per mention.
        mode (str): "hybrid" (exact match + dense + sparse, per the settings) or "dense" (embedding only).
        organisms (Optional[Sequence[Optional[OrganismContext]]]): per mention, its organism evidence (used
            when the reference set has taxa; see `organism_ranking`).
        RETURNS (List[List[Candidate]]): one list per mention.
        """
        if organisms is not None and len(organisms) != len(mentions):
            raise ValueError(f"{len(mentions)} mentions but {len(organisms)} organism contexts")
        if self.reference_set.entity_taxa is None:
            organisms = None
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if top_k < 1:
            raise ValueError(f"top_k must be at least 1, got {top_k}")
        results: List[Optional[List[Candidate]]] = [None] * len(mentions)
        todo: Dict[Tuple[str, Optional[OrganismContext]], List[int]] = {}
        for i, mention in enumerate(mentions):
            if not mention.strip():
                results[i] = []
                continue
            context = organisms[i] if organisms is not None else None
            key = (mention, top_k, mode, context)
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                results[i] = cached
            else:
                todo.setdefault((mention, context), []).append(i)
        if todo:
            distinct = list(todo)
            found = self._link_distinct([m for m, _ in distinct], top_k, mode, [c for _, c in distinct])
            for (mention, context), candidates in zip(distinct, found):
                for i in todo[(mention, context)]:
                    results[i] = candidates
                self._remember((mention, top_k, mode, context), candidates)
        return [list(r) for r in results if r is not None]

    def link_probabilities(
        self, mentions: Sequence[str], results: Sequence[Sequence[Candidate]], organisms: Optional[Sequence[Optional[OrganismContext]]] = None
    ) -> Optional[numpy.ndarray]:
        """RETURNS (Optional[numpy.ndarray]): per mention, the NIL model's probability that its best candidate
        is right (None when the linker has no NIL model; 0 for a mention without candidates)."""
        if self.nil_model is None:
            return None
        if not len(mentions):
            return numpy.zeros(0)
        taxa = self.reference_set.taxa
        taxon_of = self._taxon_lookup() if taxa else None
        contexts = organisms if organisms is not None else [None] * len(mentions)
        features = numpy.vstack([mention_features(m, c, ctx, taxon_of, taxa) for m, c, ctx in zip(mentions, results, contexts)])
        probabilities = self.nil_model.probabilities(features)
        probabilities[[not c for c in results]] = 0.0
        return probabilities

    def _taxon_lookup(self) -> "TaxonLookup":
        lookup = getattr(self, "_taxa_by_id", None)
        if lookup is None:
            lookup = self._taxa_by_id = TaxonLookup(self.reference_set)
        return lookup

    def _remember(self, key: Tuple[str, int, str, Optional[OrganismContext]], candidates: List[Candidate]) -> None:
        # Long mentions are not cached, so the cache's memory stays bounded by cache_size × MAX_CACHED_LENGTH.
        if self.settings.cache_size <= 0 or len(key[0]) > MAX_CACHED_LENGTH:
            return
        self._cache[key] = candidates
        if len(self._cache) > self.settings.cache_size:
            self._cache.popitem(last=False)

    def _link_distinct(
        self, mentions: List[str], top_k: int, mode: str, contexts: Optional[List[Optional[OrganismContext]]] = None
    ) -> List[List[Candidate]]:
        settings = self.settings
        contexts = contexts if contexts is not None else [None] * len(mentions)
        hybrid = mode == "hybrid"
        use_sparse = hybrid and self.tfidf is not None and settings.sparse_weight > 0
        use_tokens = hybrid and self.tokens is not None and settings.token_weight > 0
        if hybrid and settings.exact_match:
            exact_rows = [self._allowed_rows(rows, context) for rows, context in zip(self.exact_names.lookup_many(mentions), contexts)]
        else:
            exact_rows = [{} for _ in mentions]
        # The searches and scores below see the mention in the configured form (see query_forms).
        mentions = query_forms(mentions, settings.query_form) if hybrid else mentions
        # With the short-cut, mentions that match names exactly skip the dense and sparse searches; their
        # vectors only order several exactly matching names, so a mention matching one name is not encoded.
        shortcut = [bool(exact) and settings.exact_short_cut for exact in exact_rows]
        search = [r for r, skip in enumerate(shortcut) if not skip]
        encoded = [r for r, skip in enumerate(shortcut) if not skip or len(exact_rows[r]) > 1]
        vectors = numpy.zeros((len(mentions), self.index.dim), dtype=numpy.float32)
        if encoded:
            vectors[encoded] = self.encode([mentions[r] for r in encoded])
        n_dense = max(1, min(settings.n_candidates, self.index.n_items))
        dense_ids = numpy.full((len(mentions), n_dense), -1, dtype=numpy.int64)
        dense_sims = numpy.full((len(mentions), n_dense), -numpy.inf, dtype=numpy.float32)
        sparse_ids = numpy.full((len(mentions), 0), -1, dtype=numpy.int64)
        token_ids = numpy.full((len(mentions), 0), -1, dtype=numpy.int64)
        sparse_queries = self.tfidf.transform(mentions) if use_sparse else None
        token_queries = self.tokens.transform(mentions) if use_tokens else None
        if search:
            dense_ids[search], dense_sims[search] = self.index.query(vectors[search], settings.n_candidates, settings.search_threads)
            if use_sparse and settings.sparse_max_df > 0:
                found, _ = self.tfidf.search(sparse_queries[search], settings.n_candidates, max_df=settings.sparse_max_df)
                sparse_ids = numpy.full((len(mentions), found.shape[1]), -1, dtype=numpy.int64)
                sparse_ids[search] = found
            if use_tokens:
                found, _ = self.tokens.search(token_queries[search], settings.n_candidates)
                token_ids = numpy.full((len(mentions), found.shape[1]), -1, dtype=numpy.int64)
                token_ids[search] = found
        pools: List[List[int]] = []
        for row, exact in enumerate(exact_rows):
            pool = [int(i) for i in dense_ids[row] if i >= 0]
            pool.extend(int(i) for i in sparse_ids[row] if i >= 0)
            pool.extend(int(i) for i in token_ids[row] if i >= 0)
            pool.extend(exact)
            pools.append(list(dict.fromkeys(pool)))
        dense_scores = self._dense_scores(vectors, pools, dense_ids, dense_sims)
        sparse_scores = self.tfidf.score(sparse_queries, pools) if use_sparse else None
        token_scores = self.tokens.score(token_queries, pools) if use_tokens else None
        out: List[List[Candidate]] = []
        weight = settings.sparse_weight if use_sparse else 0.0
        fuzzy = settings.fuzzy_weight if hybrid else 0.0
        token_weight = settings.token_weight if use_tokens else 0.0
        fuzzy_scores = self._fuzzy_scores(mentions, pools) if fuzzy > 0 else None
        for row, pool in enumerate(pools):
            scores = (1.0 - weight - fuzzy - token_weight) * dense_scores[row]
            if token_scores is not None:
                scores = scores + token_weight * token_scores[row]
            if sparse_scores is not None:
                scores = scores + weight * sparse_scores[row]
            if fuzzy_scores is not None:
                scores = scores + fuzzy * fuzzy_scores[row]
            out.append(self._collapse(pool, scores, exact_rows[row], top_k, contexts[row]))
        if settings.exact_fill != "none" and use_sparse:
            fill = [r for r, skip in enumerate(shortcut) if skip and len(out[r]) < top_k]
            if fill:
                self._fill(fill, mentions, sparse_queries, token_queries, out, top_k)
        return out

    def _fill(self, rows: List[int], mentions: List[str], sparse_queries: sp.csr_matrix,
              token_queries: Optional[sp.csr_matrix], out: List[List[Candidate]], top_k: int) -> None:
        """Append to the exact entities of these short-cut rows other entities from the cheap searches (exact_fill)."""
        settings = self.settings
        n_names = min(settings.n_candidates, 2 * top_k)
        pools = [[] for _ in rows]
        if settings.sparse_max_df > 0:
            postings = self.tfidf.rare_postings(settings.sparse_max_df)
            ids, search_scores = top_k_postings(sparse_queries[rows], postings, n_names)
            pools = [[int(i) for i in found if i >= 0] for found in ids]
        if settings.exact_fill == "char":
            scores = [values[: len(pool)] for values, pool in zip(search_scores, pools)] if settings.sparse_max_df > 0 else pools
        else:
            if token_queries is not None:
                postings = self.tokens.postings
                rare = without_common_terms(token_queries[rows], postings, int(settings.sparse_max_df * self.tokens.n_names))
                ids, _ = top_k_postings(rare, postings, n_names)
                pools = [list(dict.fromkeys(pool + [int(i) for i in found if i >= 0])) for pool, found in zip(pools, ids)]
            pools = [pool + self._number_variant_rows(mentions[r], pool) for r, pool in zip(rows, pools)]
            scores = self._lexical_scores([mentions[r] for r in rows], sparse_queries[rows],
                                          None if token_queries is None else token_queries[rows], pools)
        for row, pool, values in zip(rows, pools, scores):
            out[row].extend(self._fill_candidates(pool, numpy.asarray(values, dtype=numpy.float32), out[row], top_k))

    def _number_variant_rows(self, mention: str, pool: List[int]) -> List[int]:
        """The name rows matching the other grammatical number of the mention exactly, not yet in the pool."""
        known = set(pool)
        return [row for variant in number_variants(mention) for row in self.exact_names.lookup(variant) if row not in known]

    def _fill_candidates(self, pool: List[int], scores: numpy.ndarray, exact: List[Candidate], top_k: int) -> List[Candidate]:
        """The best entities of a fill pool (by score, then name row) not among `exact`, up to top_k in all."""
        reference = self.reference_set
        rows = numpy.asarray(pool, dtype=numpy.int64)
        seen = {c.kb_id for c in exact}
        found: List[Candidate] = []
        for j in numpy.lexsort((rows, -scores)):
            if len(exact) + len(found) >= top_k:
                break
            kb_id = reference.kb_ids[int(reference.name_entity[rows[j]])]
            if kb_id not in seen:
                seen.add(kb_id)
                found.append(Candidate(kb_id, reference.names[int(rows[j])], round(min(1.0, float(scores[j])), 6)))
        return found

    def _lexical_scores(self, mentions: List[str], sparse_queries: sp.csr_matrix,
                        token_queries: Optional[sp.csr_matrix], pools: List[List[int]]) -> List[numpy.ndarray]:
        """The hybrid score without its dense part, rescaled to [0, 1]: the weighted mean of the character
        TF-IDF, token and fuzzy scores of each pool's names."""
        settings = self.settings
        parts = [(settings.sparse_weight, self.tfidf.score(sparse_queries, pools))]
        if token_queries is not None and settings.token_weight > 0:
            parts.append((settings.token_weight, self.tokens.score(token_queries, pools)))
        if settings.fuzzy_weight > 0:
            parts.append((settings.fuzzy_weight, self._fuzzy_scores(mentions, pools)))
        total = sum(w for w, _ in parts)
        return [sum(w * scores[i] for w, scores in parts) / total for i in range(len(pools))]

    def _fuzzy_scores(self, mentions: List[str], pools: List[List[int]]) -> List[numpy.ndarray]:
        """½ Indel + ½ Jaro-Winkler similarity of each mention's strict key with its candidates' keys, for all
        (mention, candidate) pairs of the batch in one rapidfuzz call per scorer; each name's key is made once."""
        rows = list({row for pool in pools for row in pool})
        keys = dict(zip(rows, map(strict_key, strings_at(self.reference_set.names, rows))))
        queries = [strict_key(mention) for mention in mentions]
        left = [queries[i] for i, pool in enumerate(pools) for _ in pool]
        right = [keys[row] for pool in pools for row in pool]
        if not left:
            return [numpy.zeros(0, dtype=numpy.float32) for _ in pools]
        indel = cpdist(left, right, scorer=Indel.normalized_similarity, dtype=numpy.float32)
        jaro = cpdist(left, right, scorer=JaroWinkler.normalized_similarity, dtype=numpy.float32)
        scores = 0.5 * indel + 0.5 * jaro
        return numpy.split(scores, numpy.cumsum([len(pool) for pool in pools])[:-1])

    def _dense_scores(
        self, vectors: numpy.ndarray, pools: List[List[int]], dense_ids: numpy.ndarray, dense_sims: numpy.ndarray
    ) -> List[numpy.ndarray]:
        # Each pool starts with the Annoy hits (whose similarities Annoy gave); the names after them
        # (sparse and exact candidates) are scored against the stored vectors, all rows at once.
        scores = []
        counts: List[int] = []
        missing_rows: List[int] = []
        missing_items: List[int] = []
        for row, pool in enumerate(pools):
            n_known = int((dense_ids[row] >= 0).sum())
            values = numpy.empty(len(pool), dtype=numpy.float32)
            values[:n_known] = dense_sims[row, :n_known]
            scores.append(values)
            counts.append(len(pool) - n_known)
            missing_rows.extend([row] * (len(pool) - n_known))
            missing_items.extend(pool[n_known:])
        if missing_items:
            items = self.index.item_vectors(numpy.asarray(missing_items, dtype=numpy.int64))
            sims = numpy.einsum("ij,ij->i", items, vectors[missing_rows])
            start = 0
            for values, count in zip(scores, counts):
                if count:
                    values[len(values) - count :] = sims[start : start + count]
                    start += count
        return scores

    def _allowed_rows(self, rows: Dict[int, int], context: Optional[OrganismContext]) -> Dict[int, int]:
        """The exact-match rows of entities the mention's organism restriction allows."""
        if not rows or context is None or context.allowed is None:
            return rows
        keys = numpy.fromiter(rows, dtype=numpy.int64, count=len(rows))
        mask = allowed_mask(self.reference_set.entity_taxa, self.reference_set.name_entity[keys].astype(numpy.int64), context)
        return rows if mask is None else {int(r): rows[int(r)] for r in keys[mask]}

    def _collapse(
        self, pool: List[int], scores: numpy.ndarray, exact: Dict[int, int], top_k: int, context: Optional[OrganismContext] = None
    ) -> List[Candidate]:
        # Each entity keeps its best name by (exact tier, assigned organism among exact matches, kind priority
        # of an exact match, prior, score + organism bonus), the earliest in the pool on ties; entities rank by
        # the same key, then by entity index.
        reference = self.reference_set
        rows = numpy.asarray(pool, dtype=numpy.int64)
        scores = numpy.asarray(scores, dtype=numpy.float32)
        if context is not None and reference.entity_taxa is not None:
            keep = allowed_mask(reference.entity_taxa, reference.name_entity[rows].astype(numpy.int64), context)
            if keep is not None:
                rows, scores = rows[keep], scores[keep]
                pool = rows.tolist()
        tiers = numpy.zeros(len(rows), dtype=numpy.int64)
        kinds = numpy.zeros(len(rows), dtype=numpy.int64)
        entities = reference.name_entity[rows].astype(numpy.int64)
        priors = numpy.zeros(len(rows), dtype=numpy.float64)
        if exact:
            matched = [j for j, name_row in enumerate(pool) if name_row in exact]
            tiers[matched] = [exact[pool[j]] for j in matched]
            kinds[matched] = -kind_ranks([reference.kinds[pool[j]] for j in matched], self.settings.exact_kind_priority)
            prior = self._entity_priors()
            if prior is not None:
                priors[matched] = prior[entities[matched]]
        bonus, confident = organism_match(reference.entity_taxa, entities, context, self.settings.organism_min_confidence)
        ranking = scores + numpy.float32(self.settings.organism_weight) * bonus
        organism = confident * (tiers > 0)
        by_name = numpy.lexsort((numpy.arange(len(rows)), -ranking, -priors, -kinds, -organism, -tiers))
        _, first = numpy.unique(entities[by_name], return_index=True)
        best = by_name[first]
        ranked = best[numpy.lexsort((entities[best], -ranking[best], -priors[best], -kinds[best], -organism[best], -tiers[best]))][:top_k]
        kb_ids = strings_at(reference.kb_ids, entities[ranked].tolist())
        names = strings_at(reference.names, rows[ranked].tolist())
        return [
            Candidate(kb_id, name, 1.0 if tiers[j] else round(min(1.0, float(scores[j])), 6))
            for kb_id, name, j in zip(kb_ids, names, ranked)
        ]

    def _entity_priors(self) -> Optional[numpy.ndarray]:
        tie_break = self.settings.exact_tie_break
        if tie_break == "prior":
            return entity_priors(self.reference_set, tie_break, self.entity_prior)
        cached = getattr(self, "_prior_cache", None)
        if cached is None or cached[0] != tie_break:
            cached = (tie_break, entity_priors(self.reference_set, tie_break, None))
            self._prior_cache = cached
        return cached[1]

    def to_disk(self, directory) -> None:
        """Save the linker into a directory (see `spacy_nseen.linker_io`)."""
        from .linker_io import save_linker

        save_linker(self, directory)

    @classmethod
    def from_disk(cls, directory, **kwargs) -> "KnowledgeBaseLinker":
        """Load a linker directory (see `spacy_nseen.linker_io.load_linker` for the options)."""
        from .linker_io import load_linker

        return load_linker(directory, **kwargs)

