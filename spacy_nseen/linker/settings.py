"""The settings of a linker: the single source of their names, types and defaults.

`LinkerSettings` holds how one reference set is searched and ranked; the component's registered parts set its
fields (`parts.ranker`, `parts.decision`, `parts.index`: typed arguments, so spaCy's config validation names a bad
value), globally or for one reference set (`kbs.<set>.ranker`). Ranges are checked in `__post_init__`, with errors
that name the setting. `IndexSettings` holds how an index is built.

Adding a signal adds its weight here (and its options): nothing else of the settings changes.
"""

from dataclasses import asdict, dataclass, fields
from typing import Any, Dict, Literal, Mapping, Tuple

from ..encoder.layer import PRECISIONS
from ..retrieval.name_index import N_TREES, SEARCH_K
from ..text.query_forms import QUERY_FORMS
from .exact_ranking import KIND_PRIORITIES, TIE_BREAKS

MODES = ("hybrid", "dense")
KIND_PRIORITY_TABLES = tuple(KIND_PRIORITIES)
# The config types of the enumerated settings, made from the tuples their modules define.
Mode = Literal[MODES]  # type: ignore[valid-type]
QueryForm = Literal[QUERY_FORMS]  # type: ignore[valid-type]
TieBreak = Literal[TIE_BREAKS]  # type: ignore[valid-type]
KindPriority = Literal[KIND_PRIORITY_TABLES]  # type: ignore[valid-type]
Precision = Literal[PRECISIONS]  # type: ignore[valid-type]


@dataclass
class LinkerSettings:
    """How a KnowledgeBaseLinker searches and ranks (every field is a component config setting).

    n_candidates (int): reference names fetched per mention from each search before collapsing.
    exact_match (bool): rank exact (normalised) name matches first (the exact tier).
    sparse_weight (float): weight of the character n-gram TF-IDF cosine.
    cache_size (int): mentions whose results are kept (least recently used dropped); 0 = no cache.
    fuzzy_weight (float): weight of ½ Indel ratio + ½ Jaro-Winkler on strict keys (rapidfuzz); 0 = off.
    sparse_max_df (float): the TF-IDF candidates are searched with the n-grams found in at most this fraction
        of the names (1 = all n-grams; 0 = no TF-IDF candidates, the score only re-ranks).
    token_weight (float): weight of the word-level TF-IDF cosine; its best names join the pool (0 = off).
        The dense cosine gets 1 − token_weight − sparse_weight − fuzzy_weight.
    exact_short_cut (bool): a mention that matches names exactly gets only their entities (the same first
        candidates, with the same scores), without the dense and lexical searches.
    search_threads (int): threads for the Annoy searches of a batch of mentions.
    exact_kind_priority (str): the name-kind table that orders entities matching exactly ("default", "hgnc",
        "none", see `exact_ranking`).
    exact_tie_break (str): the entity prior that orders exact matches of equal kind priority before the score:
        "score" (none), "names" (more names first) or "prior" (the linker's `entity_prior`, saved with it).
    query_form (str): the form of the mention the dense and lexical signals see (see `query_forms`); the exact
        match always uses the mention as written.
    organism_weight (float): added, times the assignment's confidence, to the score of candidates of the
        organism a mention was assigned to (multi-organism reference sets; see `organism_ranking`).
    organism_min_confidence (float): among exact matches of one tier, the assigned organism's entities rank
        first when the assignment's confidence reaches this value.
    organism_orthologs (bool): a candidate of another organism also brings its ortholog (same gene symbol) of
        the assigned organism when the confidence reaches `organism_min_confidence` (`organisms.orthologs`): an
        exact match as an exact match of the same tier, another name with the same score.
    organism_over_exact_score (float): when a mention's exact matches are all of organisms other than the one it
        was assigned to (confidence ≥ `organism_min_confidence`, no ortholog to stand in), it is searched too, and
        a candidate of the assigned organism whose fused score reaches this value ranks with those exact matches,
        before them by the organism key (`alkaline phosphatase` in a mouse caption links to mouse Alpl, not to
        E. coli phoA, the only entry named so exactly); its written score stays its own. 1 = off.
    relational_penalty (float): subtracted from the fused score of a name that is the mention plus a relational
        head (`Lc3 synthase` for `LC3`, `EGF receptor` for `EGF`: another molecule; `text.relational_names`);
        0 = off. 0.2: chosen on the even-numbered Bio-ID documents (`results/relational_names/`).
    nil_decision (bool): the linker's NIL model (when it has one, `nil_model.json`) decides: its probability that
        the best entity is right is the link's score, compared with the component's `threshold`; False: the best
        candidate's score is (the decision stage `signals.nil`).
    link_tag_names (bool): False: a mention that is an epitope tag, reporter or genetic tool (`HA`, `Flag`,
        `GFP`, `Cre`, `TRE`) or an experimental-group label (`NTG`, `WT`; `text.tag_names`) is never linked,
        whatever its probability (its candidates are kept). For protein sets: `HA` is also the name of Head
        activator (MORN_HUMAN), but Bio-ID leaves 9,539 of its 9,652 tag-name protein and gene mentions
        un-normalised. True (the default): the decision stage decides, as for
        any mention (the NIL model reads the tag name as one feature).
    link_case_mismatch (bool): False: a lower-case word is never linked through an exact match when every name it
        matches is a symbol in capitals other than a gene's primary symbol (`simple` → the alias SIMPLE, `his`,
        `cats`, `thank`, `sqstm` → the entry mnemonic SQSTM; `src` → SRC stays; `text.case_forms`), whatever its
        probability (its candidates are kept). Off for UniProt: in 3,000 random sentences of the mirror's
        unlabelled PubMed text it withholds 61 links, 49 of them wrong by a reader's judgement
        (`results/case_forms/`); on the Bio-ID dev articles 4, none right. True (the default): the decision stage decides, as for any mention.
    discovered_penalty (float): subtracted from the fused score of a name of kind `discovered` (a synonym a curator
        accepted from a review file: `linker.added_names`), so that a reference name of another entity scoring
        about as well wins; an exact match on it ranks as any alias (the kind tables' "*"). 0 (the default): such
        a name scores as any other; a linker without discovered names is not affected by the value.
    """

    n_candidates: int = 50
    exact_match: bool = True
    sparse_weight: float = 0.05
    cache_size: int = 100_000
    fuzzy_weight: float = 0.0
    sparse_max_df: float = 0.01
    token_weight: float = 0.45
    exact_short_cut: bool = True
    search_threads: int = 1
    exact_kind_priority: KindPriority = "default"
    exact_tie_break: TieBreak = "score"
    query_form: QueryForm = "as_written"
    organism_weight: float = 0.1
    organism_min_confidence: float = 0.3
    organism_orthologs: bool = True
    organism_over_exact_score: float = 0.75
    relational_penalty: float = 0.2
    nil_decision: bool = True
    link_tag_names: bool = True
    link_case_mismatch: bool = True
    discovered_penalty: float = 0.0

    def __post_init__(self) -> None:
        def check(ok: bool, name: str, rule: str) -> None:
            if not ok:
                raise ValueError(f"{name} must be {rule}, got {getattr(self, name)!r}")

        check(self.n_candidates >= 1, "n_candidates", "at least 1")
        check(0.0 <= self.sparse_weight <= 1.0, "sparse_weight", "in [0, 1]")
        check(0.0 <= self.fuzzy_weight <= 1.0 - self.sparse_weight, "fuzzy_weight", "in [0, 1 - sparse_weight]")
        check(self.cache_size >= 0, "cache_size", ">= 0")
        check(self.search_threads >= 1, "search_threads", "at least 1")
        check(
            0.0 <= self.token_weight <= 1.0 - self.sparse_weight - self.fuzzy_weight,
            "token_weight",
            "in [0, 1 - sparse_weight - fuzzy_weight]",
        )
        check(0.0 <= self.sparse_max_df <= 1.0, "sparse_max_df", "in [0, 1]")
        check(
            self.exact_kind_priority in KIND_PRIORITY_TABLES,
            "exact_kind_priority",
            f"one of {sorted(KIND_PRIORITY_TABLES)}",
        )
        check(self.exact_tie_break in TIE_BREAKS, "exact_tie_break", f"one of {TIE_BREAKS}")
        check(self.query_form in QUERY_FORMS, "query_form", f"one of {QUERY_FORMS}")
        check(0.0 <= self.organism_weight <= 1.0, "organism_weight", "in [0, 1]")
        check(0.0 <= self.organism_min_confidence <= 1.0, "organism_min_confidence", "in [0, 1]")
        check(0.0 <= self.organism_over_exact_score <= 1.0, "organism_over_exact_score", "in [0, 1]")
        check(0.0 <= self.relational_penalty <= 1.0, "relational_penalty", "in [0, 1]")
        check(0.0 <= self.discovered_penalty <= 1.0, "discovered_penalty", "in [0, 1]")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "LinkerSettings":
        """Settings from a dict (e.g. a linker directory's `linker.json`); unknown keys are ignored."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)

    def differences(self, other: "LinkerSettings") -> Dict[str, Tuple[Any, Any]]:
        """RETURNS (Dict[str, Tuple[Any, Any]]): setting → (this value, the other's) where they differ."""
        mine, theirs = self.to_dict(), other.to_dict()
        return {k: (v, theirs[k]) for k, v in mine.items() if theirs[k] != v}


def signal_weight_order(setting: str) -> int:
    """RETURNS (int): the position of a scoring signal's weight among the `*_weight` fields of LinkerSettings:
    the order of the fusion's weighted sum (the dense signal first, then token, sparse, fuzzy)."""
    weights = [f.name for f in fields(LinkerSettings) if f.name.endswith("_weight") and f.name != "organism_weight"]
    order = ["token_weight", "sparse_weight", "fuzzy_weight"]
    order += [w for w in weights if w not in order]
    if setting not in order:
        raise ValueError(
            f"a scoring signal's weight_setting must be a LinkerSettings '*_weight' field, got {setting!r}"
        )
    return order.index(setting)


@dataclass
class IndexSettings:
    """How an index is built and searched (component settings; the single source of their defaults).

    n_trees (int): Annoy trees (20: the Hits@1 of 50 with 45% smaller files, `results/benchmark.md`).
    search_k (int): Annoy nodes inspected per query (-1: Annoy's own, n_trees × n).
    seed (int): Annoy seed.
    build_precision (str): encoder precision for the reference names when an index is built.
    """

    n_trees: int = N_TREES
    search_k: int = SEARCH_K
    seed: int = 0
    build_precision: Precision = "bf16"

    def __post_init__(self) -> None:
        if self.n_trees < 1:
            raise ValueError(f"n_trees must be at least 1, got {self.n_trees}")
        if self.build_precision not in PRECISIONS:
            raise ValueError(f"build_precision must be one of {PRECISIONS}, got {self.build_precision!r}")
