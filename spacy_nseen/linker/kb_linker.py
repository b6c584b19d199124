"""Linking strings to one reference set: the encoder, the reference set, its indexes and the fusion of signals.

This module knows nothing of spaCy. `KnowledgeBaseLinker.link` caches per mention and hands each batch of
distinct mentions to the fusion (`linker.fusion`): the exact tier, the dense signal (NSEEN §3.3, Algorithm 3:
the nearest reference names in the embedding space, Annoy), the scoring signals (word TF-IDF, character n-gram
TF-IDF, fuzzy; `linker.signals`) and the organism signal give candidates and scores, combined into one ranking
of distinct entities; `verdicts` and `link_probabilities` are the fusion's decision stage on the result (the NIL
decision, `signals.nil`).
`mode="dense"` is the dense signal alone: pure embedding nearest neighbours, as in the paper.
"""

import copy
from collections import OrderedDict
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy
from thinc.api import Model

from ..encoder.layer import PRECISIONS, encode_names
from ..organisms.orthologs import OrthologTable
from ..organisms.ranking import OrganismContext
from ..reference.reference_set import ReferenceSet
from ..reference.short_form_names import derived_rows
from ..retrieval.char_tfidf import CharNgramTfidf
from ..retrieval.exact_names import ExactNameIndex
from ..retrieval.name_index import AnnoyNameIndex
from ..retrieval.word_tfidf import NameTokenIndex
from ..text.abbreviations import searched_form
from ..text.tag_names import is_tag_name
from .added_names import UnknownIdsError, names_metadata, parts_with_names, plan_names
from .build import build_parts
from .candidate import Candidate
from .exact_ranking import KIND_PRIORITIES, entity_priors
from .fusion import Fusion
from .nil_decision import NilModel
from .settings import MODES, IndexSettings, LinkerSettings
from .signals import Verdict
from .storage import ENTITY_PRIOR_FILE, check_prior, read_linker_parts, save_linker
from .taxon_lookup import TaxonLookup

MAX_CACHED_LENGTH = 256
# Name kinds preferred when several entities match a mention exactly (lower is better).
# (See `exact_ranking` for the other tables and the `exact_kind_priority` / `exact_tie_break` settings.)
KIND_PRIORITY = {k: v for k, v in KIND_PRIORITIES["default"].items() if k != "*"}
# The attributes the ranking (`Fusion`) is made from: replacing one makes it again.
RANKED_BY = frozenset(
    {
        "settings",
        "encoder",
        "encode",
        "reference_set",
        "index",
        "tfidf",
        "tokens",
        "exact_names",
        "nil_model",
        "entity_prior",
    }
)


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
        self.exact_names.exclude(lambda: derived_rows(reference_set))  # short forms are no exact names
        self._cache: OrderedDict[Tuple[str, int, str, Optional[OrganismContext]], List[Candidate]] = OrderedDict()
        self.build_seconds: Dict[str, float] = {}
        # Per-entity values for exact_tie_break="prior" (e.g. ChEBI star levels; see exact_ranking).
        self.entity_prior: Optional[numpy.ndarray] = None
        # The NIL decision (None: the best candidate's score is the link's score) and the entities'
        # cross-references (a dict, or the XrefTable of a loaded linker), both saved with the linker (see
        # nil_decision, xref_table).
        self.nil_model: Optional[NilModel] = None
        self.xrefs: Mapping[str, Dict[str, str]] = {}
        # Names added from curated sources (review files): source → names, saved in linker.json (see added_names).
        self.name_sources: Dict[str, int] = {}

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
        parts = build_parts(
            encoder,
            reference_set.names,
            n_trees=n_trees,
            search_k=search_k,
            seed=seed,
            with_sparse=with_tfidf,
            precision=build_precision,
        )
        linker = cls(
            name,
            encoder,
            reference_set,
            parts.index,
            parts.tfidf,
            settings,
            exact_names=parts.exact_names,
            tokens=parts.tokens,
        )
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
        """Forget the linked mentions and their searches (`Fusion.searches`)."""
        self._cache.clear()
        for fusion in self.__dict__.get("_fusions", {}).values():
            fusion.clear_cache()

    def add_names(self, names: Sequence[Tuple[str, str, str]], source: str, *, skip_unknown: bool = False) -> int:
        """Add names to entities of this linker, without a rebuild (see `linker.added_names`): the exact keys, the
        char TF-IDF, the word index and the dense search find them at once; they are saved with the linker.

        names (Sequence[Tuple[str, str, str]]): (kb_id, name, kind) triples, e.g. a review file's
            `accepted_names(kb)`; an empty kind is `discovered`.
        source (str): where the names come from (a review file's corpus), counted in the linker's metadata.
        skip_unknown (bool): skip names of ids that are not entities of the reference set (default: an
            `UnknownIdsError` naming them, and nothing is added).
        RETURNS (int): the (kb_id, name) pairs added; names their entity already has are not added again (a derived
            short form of it takes the given kind: an exact name from then on, counted as added).
        """
        plan = plan_names(self, names)
        if plan.unknown and not skip_unknown:
            raise UnknownIdsError(self.name, plan.unknown)
        if not plan.new and not plan.promoted:
            return 0
        parts = parts_with_names(self, plan.new, plan.promoted)
        reference = parts["reference_set"]
        parts["exact_names"].exclude(lambda: derived_rows(reference))  # short forms are no exact names
        for key, value in parts.items():
            setattr(self, key, value)  # each replaced part makes the ranking again (RANKED_BY)
        n_added = len(plan.new) + len(plan.promoted)
        self.name_sources = {**self.name_sources, source: self.name_sources.get(source, 0) + n_added}
        for derived in ("_orthologs", "_taxa_by_id", "_prior_cache"):  # made from the reference set on first use
            self.__dict__.pop(derived, None)
        self.clear_cache()
        return n_added

    def names_metadata(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): how many discovered names the linker has, from which sources (a review file's
        corpus), and how many were added after its build (`added_names.names_metadata`)."""
        return names_metadata(self.reference_set.kinds, self.name_sources, self.index.n_items - self.index.n_built)

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

    def searched_form(self, mention: str, long_form: Optional[str] = None, guessed: bool = False) -> str:
        """RETURNS (str): the text linked for a mention whose abbreviation is defined: `abbreviations.searched_form`
        with this reference set's exact names.

        guessed (bool): the long form is the abbreviation lexicon's, not a definition in the mention's text or
            context; it is dropped where `takes_lexicon_guess` says no.
        """
        if guessed and not self.takes_lexicon_guess(mention):
            long_form = None
        return searched_form(mention, long_form, lambda text: bool(self.exact_names.lookup(text)))

    def takes_lexicon_guess(self, mention: str) -> bool:
        """RETURNS (bool): whether an abbreviation lexicon's long form may be searched for the mention: not for a
        tag name this linker never links (`link_tag_names` off): `MBP` in `MBP-FEZ1` is the maltose-binding tag,
        not the lexicon's myelin basic protein."""
        return self.settings.link_tag_names or not is_tag_name(mention)

    def link_probabilities(
        self,
        mentions: Sequence[str],
        results: Sequence[Sequence[Candidate]],
        organisms: Optional[Sequence[Optional[OrganismContext]]] = None,
    ) -> Optional[numpy.ndarray]:
        """RETURNS (Optional[numpy.ndarray]): per mention, the NIL model's probability that its best candidate
        is right (None when the linker has no NIL model or `nil_decision` is off; 0 for a mention without
        candidates). The fusion's decision stage (`Fusion.probabilities`)."""
        return self.fusion().probabilities(mentions, results, organisms)

    def verdicts(
        self,
        mentions: Sequence[str],
        results: Sequence[Sequence[Candidate]],
        organisms: Optional[Sequence[Optional[OrganismContext]]],
        threshold: float,
    ) -> List[Verdict]:
        """RETURNS (List[Verdict]): per mention, the decision on its ranked candidates (`Fusion.verdicts`)."""
        return self.fusion().verdicts(mentions, results, organisms, threshold)

    def ortholog_table(self) -> OrthologTable:
        """RETURNS (OrthologTable): this reference set's orthologs by gene symbol (built on first use)."""
        table = getattr(self, "_orthologs", None)
        if table is None:
            table = self._orthologs = OrthologTable(self.reference_set)
        return table

    def taxon_lookup(self) -> TaxonLookup:
        """RETURNS (TaxonLookup): kb_id → taxon of this reference set (built on first use)."""
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

    def fusion(self, mode: str = "hybrid") -> Fusion:
        """RETURNS (Fusion): this linker's signals and how they combine, for its current settings and a mode
        (made once, and again only when a part it reads is replaced: `RANKED_BY`)."""
        fusions: Dict[str, Fusion] = self.__dict__.setdefault("_fusions", {})
        found = fusions.get(mode)
        if found is None:
            found = fusions[mode] = Fusion(self, self.settings, mode)
        return found

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name in RANKED_BY:  # the ranking is made again from the new part at the next link
            object.__setattr__(self, "_fusions", {})

    def _link_distinct(
        self, mentions: List[str], top_k: int, mode: str, contexts: Optional[List[Optional[OrganismContext]]] = None
    ) -> List[List[Candidate]]:
        contexts = contexts if contexts is not None else [None] * len(mentions)
        return self.fusion(mode).link(mentions, top_k, contexts)

    def tie_break_priors(self) -> Optional[numpy.ndarray]:
        """RETURNS (Optional[numpy.ndarray]): per entity, the prior of `exact_tie_break` (None for "score")."""
        tie_break = self.settings.exact_tie_break
        if tie_break == "prior":
            return entity_priors(self.reference_set, tie_break, self.entity_prior)
        cached = getattr(self, "_prior_cache", None)
        if cached is None or cached[0] != tie_break:
            prior = entity_priors(self.reference_set, tie_break, None)
            if prior is not None and tie_break == "names" and self.reference_set.entity_taxa is not None:
                # how studied a gene is, not one organism's entry: orthologs share their best-named member's count
                prior = self.ortholog_table().pooled_max(prior)
            cached = (tie_break, prior)
            self._prior_cache = cached
        return cached[1]

    def to_disk(self, directory) -> None:
        """Save the linker into a directory (see `spacy_nseen.linker.storage`)."""
        save_linker(self, directory)

    @classmethod
    def from_disk(cls, directory, **kwargs) -> "KnowledgeBaseLinker":
        """Load a linker directory (see `spacy_nseen.linker.storage.load_linker` for the options)."""
        return load_linker(directory, **kwargs)


def load_linker(
    directory: Union[str, Path],
    encoder: Optional[Model] = None,
    settings: Optional[LinkerSettings] = None,
    search_k: Optional[int] = None,
    require_prior: bool = True,
    with_nil_model: bool = True,
) -> KnowledgeBaseLinker:
    """Load a linker directory (`storage`), checking every file before the first mention is linked.

    encoder (Optional[Model]): a configured encoder layer to load the weights into; if None, one is built
        from the saved `encoder.json`.
    settings (Optional[LinkerSettings]): search settings; default: those saved in `linker.json`.
    search_k (Optional[int]): Annoy search_k; default: the saved value.
    require_prior (bool): fail when the settings ask for `exact_tie_break="prior"` and no prior is saved.
    with_nil_model (bool): load `nil_model.json` (False: link without it, e.g. to train a new one).
    """
    parts = read_linker_parts(
        directory, encoder=encoder, settings=settings, search_k=search_k, with_nil_model=with_nil_model
    )
    extras = {key: parts.pop(key) for key in ("nil_model", "xrefs", "entity_prior", "name_sources")}
    linker = KnowledgeBaseLinker(**parts)
    linker.nil_model, linker.xrefs, linker.entity_prior = extras["nil_model"], extras["xrefs"], extras["entity_prior"]
    linker.name_sources = extras["name_sources"]
    if require_prior:
        check_prior(linker, Path(directory) / ENTITY_PRIOR_FILE)
    return linker
