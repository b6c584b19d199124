"""The ranker: how one reference set's names are searched and ranked (`[components.nseen_linker.ranker]`).

`spacy_nseen.HybridRanker.v1` is the shipped ranking: an exact-match tier, then one weighted sum of the dense
cosine and the lexical signals (word TF-IDF, character n-gram TF-IDF, fuzzy string ratio; BioSyn-style), with
the organism and relational-name terms. `spacy_nseen.DenseRanker.v1` is the paper's: the dense cosine only.
A user's own ranker is a function registered in `spacy.util.registry.misc` that returns a `Ranker`.
"""

from dataclasses import dataclass
from typing import Any, Dict

from spacy.util import registry

from ..linker.settings import LinkerSettings, QueryForm, TieBreak

HYBRID = "spacy_nseen.HybridRanker.v1"
DENSE = "spacy_nseen.DenseRanker.v1"


@dataclass(frozen=True)
class Ranker:
    """How a linker searches and ranks: the search mode and the `LinkerSettings` fields it sets.

    mode (str): "hybrid" (exact tier + fused signals) or "dense" (the dense cosine only).
    search (Dict[str, Any]): `LinkerSettings` fields (checked when the linker's settings are made).
    expand_abbreviations (bool): search an undefined short form by its long form (the doc's, its article's,
        or the pipeline's abbreviation lexicon's) as well.
    """

    mode: str
    search: Dict[str, Any]
    expand_abbreviations: bool = True

    def __post_init__(self) -> None:
        try:
            LinkerSettings(**self.search)  # a bad value fails when the config is read, naming the setting
        except (TypeError, ValueError) as err:
            raise ValueError(f"ranker: {err}") from None


@registry.misc(HYBRID)
def make_hybrid_ranker(
    n_candidates: int = LinkerSettings.n_candidates,
    exact_match: bool = LinkerSettings.exact_match,
    exact_short_cut: bool = LinkerSettings.exact_short_cut,
    exact_tie_break: TieBreak = LinkerSettings.exact_tie_break,
    query_form: QueryForm = LinkerSettings.query_form,
    token_weight: float = LinkerSettings.token_weight,
    sparse_weight: float = LinkerSettings.sparse_weight,
    fuzzy_weight: float = LinkerSettings.fuzzy_weight,
    sparse_max_df: float = LinkerSettings.sparse_max_df,
    organism_weight: float = LinkerSettings.organism_weight,
    organism_min_confidence: float = LinkerSettings.organism_min_confidence,
    organism_orthologs: bool = LinkerSettings.organism_orthologs,
    organism_over_exact_score: float = LinkerSettings.organism_over_exact_score,
    relational_penalty: float = LinkerSettings.relational_penalty,
    discovered_penalty: float = LinkerSettings.discovered_penalty,
    expand_abbreviations: bool = True,
    cache_size: int = LinkerSettings.cache_size,
) -> Ranker:
    """The shipped hybrid ranking (see `linker.settings.LinkerSettings` for each setting; the dense cosine
    gets 1 − token_weight − sparse_weight − fuzzy_weight)."""
    search = {
        "n_candidates": n_candidates,
        "exact_match": exact_match,
        "exact_short_cut": exact_short_cut,
        "exact_tie_break": exact_tie_break,
        "query_form": query_form,
        "token_weight": token_weight,
        "sparse_weight": sparse_weight,
        "fuzzy_weight": fuzzy_weight,
        "sparse_max_df": sparse_max_df,
        "organism_weight": organism_weight,
        "organism_min_confidence": organism_min_confidence,
        "organism_orthologs": organism_orthologs,
        "organism_over_exact_score": organism_over_exact_score,
        "relational_penalty": relational_penalty,
        "discovered_penalty": discovered_penalty,
        "cache_size": cache_size,
    }
    return Ranker("hybrid", search, expand_abbreviations)


@registry.misc(DENSE)
def make_dense_ranker(
    n_candidates: int = LinkerSettings.n_candidates,
    expand_abbreviations: bool = True,
    cache_size: int = LinkerSettings.cache_size,
) -> Ranker:
    """NSEEN as in the paper: the nearest names by the dense cosine, no exact tier and no lexical signals."""
    return Ranker("dense", {"n_candidates": n_candidates, "cache_size": cache_size}, expand_abbreviations)
