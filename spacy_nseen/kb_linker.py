"""Linking strings to one reference set: encoder + Annoy index + exact-match short-cut + sparse re-rank.

This module knows nothing of spaCy. For each mention (NSEEN §3.3, Algorithm 3):
1. exact match: names whose strict key (then loose key) equals the mention's rank first, score 1.0;
2. dense: the `n_candidates` nearest reference names in the embedding space (Annoy);
3. hybrid (optional, BioSyn-style): the `n_candidates` best names by character n-gram TF-IDF join the
   pool and every candidate name is scored (1 − w)·cosine + w·tfidf;
4. names collapse to their entities (an entity scores its best name); the top-k distinct entities remain.
`mode="dense"` skips 1 and 3: pure embedding nearest neighbours, as in the paper.
"""
from collections import OrderedDict
from dataclasses import asdict, dataclass, fields
from typing import Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

import numpy
from thinc.api import Model

from .encoder_layer import encode_names
from .name_index import AnnoyNameIndex
from .name_normalization import loose_key, strict_key
from .ngram_tfidf import CharNgramTfidf
from .reference_set import ReferenceSet

MODES = ("hybrid", "dense")
# Name kinds preferred when several entities match a mention exactly (lower is better).
KIND_PRIORITY = {"recommended": 0, "primary": 0, "gene_primary": 1, "name": 1, "alternative": 2, "synonym": 3}


class Candidate(NamedTuple):
    """One linked entity: its id, the best-matching reference name and a score (higher is better)."""

    kb_id: str
    name: str
    score: float


@dataclass
class LinkerSettings:
    """How a KnowledgeBaseLinker searches (every field is a component config setting).

    n_candidates (int): reference names fetched per mention from each search before collapsing.
    exact_match (bool): rank exact (normalised) name matches first.
    sparse_weight (float): weight w of the TF-IDF score in hybrid mode (0 = dense only).
    cache_size (int): mentions whose results are kept (least recently used dropped); 0 = no cache.
    """

    n_candidates: int = 50
    exact_match: bool = True
    sparse_weight: float = 0.5
    cache_size: int = 100_000

    def __post_init__(self) -> None:
        if self.n_candidates < 1:
            raise ValueError(f"n_candidates must be at least 1, got {self.n_candidates}")
        if not 0.0 <= self.sparse_weight <= 1.0:
            raise ValueError(f"sparse_weight must be in [0, 1], got {self.sparse_weight}")
        if self.cache_size < 0:
            raise ValueError(f"cache_size must be >= 0, got {self.cache_size}")

    @classmethod
    def from_dict(cls, data: Dict) -> "LinkerSettings":
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def to_dict(self) -> Dict:
        return asdict(self)


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
    ) -> None:
        if index.n_items != len(reference_set):
            raise ValueError(f"the index holds {index.n_items} names, the reference set {len(reference_set)}")
        self.name = name
        self.encoder = encoder
        self.reference_set = reference_set
        self.index = index
        self.tfidf = tfidf
        self.settings = settings or LinkerSettings()
        self._strict: Dict[str, List[int]] = {}
        self._loose: Dict[str, List[int]] = {}
        for row, ref_name in enumerate(reference_set.names):
            self._strict.setdefault(strict_key(ref_name), []).append(row)
            key = loose_key(ref_name)
            if key:
                self._loose.setdefault(key, []).append(row)
        self._cache: "OrderedDict[Tuple[str, int, str], List[Candidate]]" = OrderedDict()

    @classmethod
    def build(
        cls,
        name: str,
        encoder: Model,
        reference_set: ReferenceSet,
        *,
        n_trees: int = 50,
        search_k: int = -1,
        seed: int = 0,
        settings: Optional[LinkerSettings] = None,
        with_tfidf: bool = True,
    ) -> "KnowledgeBaseLinker":
        """Embed every reference name, build the Annoy index (and the TF-IDF matrix)."""
        vectors = encode_names(encoder, reference_set.names)
        index = AnnoyNameIndex.build(vectors, n_trees=n_trees, search_k=search_k, seed=seed)
        tfidf = CharNgramTfidf().fit(reference_set.names) if with_tfidf else None
        return cls(name, encoder, reference_set, index, tfidf, settings)

    def encode(self, strings: Sequence[str]) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): L2-normalised float32 vectors of the strings."""
        return encode_names(self.encoder, list(strings))

    def clear_cache(self) -> None:
        self._cache.clear()

    def link(self, mentions: Sequence[str], top_k: int = 5, mode: str = "hybrid") -> List[List[Candidate]]:
        """Link each mention to its top-k distinct entities, best first.

        mentions (Sequence[str]): the mention strings (any Unicode; empty strings get no candidates).
        top_k (int): entities per mention.
        mode (str): "hybrid" (exact match + dense + sparse, per the settings) or "dense" (embedding only).
        RETURNS (List[List[Candidate]]): one list per mention.
        """
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if top_k < 1:
            raise ValueError(f"top_k must be at least 1, got {top_k}")
        results: List[Optional[List[Candidate]]] = [None] * len(mentions)
        todo: Dict[str, List[int]] = {}
        for i, mention in enumerate(mentions):
            if not mention.strip():
                results[i] = []
                continue
            cached = self._cache.get((mention, top_k, mode))
            if cached is not None:
                self._cache.move_to_end((mention, top_k, mode))
                results[i] = cached
            else:
                todo.setdefault(mention, []).append(i)
        if todo:
            distinct = list(todo)
            for mention, candidates in zip(distinct, self._link_distinct(distinct, top_k, mode)):
                for i in todo[mention]:
                    results[i] = candidates
                self._remember((mention, top_k, mode), candidates)
        return [list(r) for r in results if r is not None]

    def _remember(self, key: Tuple[str, int, str], candidates: List[Candidate]) -> None:
        if self.settings.cache_size <= 0:
            return
        self._cache[key] = candidates
        if len(self._cache) > self.settings.cache_size:
            self._cache.popitem(last=False)

    def _link_distinct(self, mentions: List[str], top_k: int, mode: str) -> List[List[Candidate]]:
        settings = self.settings
        vectors = self.encode(mentions)
        dense_ids, dense_sims = self.index.query(vectors, settings.n_candidates)
        hybrid = mode == "hybrid"
        use_sparse = hybrid and self.tfidf is not None and settings.sparse_weight > 0
        if use_sparse:
            sparse_ids, _ = self.tfidf.top_k(mentions, settings.n_candidates)
        pools: List[List[int]] = []
        exact_rows: List[Dict[int, int]] = []
        for row, mention in enumerate(mentions):
            pool = [int(i) for i in dense_ids[row] if i >= 0]
            exact: Dict[int, int] = {}
            if hybrid and settings.exact_match:
                for tier, rows in ((2, self._strict.get(strict_key(mention), [])), (1, self._loose.get(loose_key(mention), []))):
                    for name_row in rows:
                        exact.setdefault(name_row, tier)
            if use_sparse:
                pool.extend(int(i) for i in sparse_ids[row])
            pool.extend(exact)
            pools.append(list(dict.fromkeys(pool)))
            exact_rows.append(exact)
        dense_scores = self._dense_scores(vectors, pools, dense_ids, dense_sims)
        sparse_scores = self.tfidf.pair_scores(mentions, pools) if use_sparse else None
        out: List[List[Candidate]] = []
        weight = settings.sparse_weight if use_sparse else 0.0
        for row, pool in enumerate(pools):
            scores = dense_scores[row]
            if sparse_scores is not None:
                scores = (1.0 - weight) * scores + weight * sparse_scores[row]
            out.append(self._collapse(pool, scores, exact_rows[row], top_k))
        return out

    def _dense_scores(
        self, vectors: numpy.ndarray, pools: List[List[int]], dense_ids: numpy.ndarray, dense_sims: numpy.ndarray
    ) -> List[numpy.ndarray]:
        scores = []
        for row, pool in enumerate(pools):
            known = {int(i): float(s) for i, s in zip(dense_ids[row], dense_sims[row]) if i >= 0}
            values = numpy.empty(len(pool), dtype=numpy.float32)
            for j, name_row in enumerate(pool):
                sim = known.get(name_row)
                if sim is None:
                    sim = float(self.index.item_vector(name_row) @ vectors[row])
                values[j] = sim
            scores.append(values)
        return scores

    def _collapse(self, pool: List[int], scores: numpy.ndarray, exact: Dict[int, int], top_k: int) -> List[Candidate]:
        reference = self.reference_set
        best: Dict[int, Tuple[Tuple[int, int, float], int]] = {}
        for name_row, score in zip(pool, scores):
            tier = exact.get(name_row, 0)
            kind_rank = -KIND_PRIORITY.get(reference.kinds[name_row], 4) if tier else 0
            key = (tier, kind_rank, float(score))
            entity = int(reference.name_entity[name_row])
            if entity not in best or key > best[entity][0]:
                best[entity] = (key, name_row)
        ranked = sorted(best.items(), key=lambda item: (item[1][0], -item[0]), reverse=True)[:top_k]
        return [
            Candidate(reference.kb_ids[entity], reference.names[name_row], 1.0 if key[0] else round(min(1.0, key[2]), 6))
            for entity, (key, name_row) in ranked
        ]

    def to_disk(self, directory) -> None:
        """Save the linker into a directory (see `spacy_nseen.linker_io`)."""
        from .linker_io import save_linker

        save_linker(self, directory)

    @classmethod
    def from_disk(cls, directory, **kwargs) -> "KnowledgeBaseLinker":
        """Load a linker directory (see `spacy_nseen.linker_io.load_linker` for the options)."""
        from .linker_io import load_linker

        return load_linker(directory, **kwargs)
