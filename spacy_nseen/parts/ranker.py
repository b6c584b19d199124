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
    n_candidates: int = 50,
    exact_match: bool = True,
    exact_short_cut: bool = True,
    exact_tie_break: TieBreak = "score",
    query_form: QueryForm = "as_written",
    token_weight: float = 0.45,
    sparse_weight: float = 0.05,
    fuzzy_weight: float = 0.0,
    sparse_max_df: float = 0.01,
    organism_weight: float = 0.1,
    organism_min_confidence: float = 0.3,
    organism_orthologs: bool = True,
    organism_over_exact_score: float = 0.75,
    relational_penalty: float = 0.2,
    expand_abbreviations: bool = True,
    cache_size: int = 100_000,
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
        "cache_size": cache_size,
    }
    return Ranker("hybrid", search, expand_abbreviations)


@registry.misc(DENSE)
def make_dense_ranker(n_candidates: int = 50, expand_abbreviations: bool = True, cache_size: int = 100_000) -> Ranker:
    """NSEEN as in the paper: the nearest names by the dense cosine, no exact tier and no lexical signals."""
    return Ranker("dense", {"n_candidates": n_candidates, "cache_size": cache_size}, expand_abbreviations)


def ranker_config(ranker: Ranker) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): a config block that makes `ranker` again (for configs written from Python)."""
    if ranker.mode == "dense":
        return {
            "@misc": DENSE,
            "n_candidates": ranker.search.get("n_candidates", 50),
            "cache_size": ranker.search.get("cache_size", 100_000),
            "expand_abbreviations": ranker.expand_abbreviations,
        }
    return {"@misc": HYBRID, **ranker.search, "expand_abbreviations": ranker.expand_abbreviations}


def default_search() -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): the hybrid ranker's settings with their defaults."""
    return dict(make_hybrid_ranker().search)
