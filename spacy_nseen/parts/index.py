"""The index: how each reference set's Annoy index is built and searched (`[components.nseen_linker.index]`)."""

from dataclasses import dataclass
from typing import Any, Dict

from spacy.util import registry

from ..linker.settings import IndexSettings, Precision
from ..retrieval.name_index import N_TREES, SEARCH_K

ANNOY_INDEX = "spacy_nseen.AnnoyIndex.v1"


@dataclass(frozen=True)
class IndexPart:
    """How indexes are built (`settings`) and searched (`search_threads`: threads per batch of mentions)."""

    settings: IndexSettings
    search_threads: int = 1

    def __post_init__(self) -> None:
        if self.search_threads < 1:
            raise ValueError(f"index: search_threads must be at least 1, got {self.search_threads}")


@registry.misc(ANNOY_INDEX)
def make_annoy_index(
    n_trees: int = N_TREES,
    search_k: int = SEARCH_K,
    seed: int = 0,
    build_precision: Precision = "bf16",
    search_threads: int = 1,
) -> IndexPart:
    """Annoy over the name vectors: `n_trees` trees (built at `initialize` from an encoder and a reference set),
    `search_k` nodes visited per query, names encoded at `build_precision`."""
    return IndexPart(IndexSettings(n_trees, search_k, seed, build_precision), search_threads)


def index_config(index: IndexPart) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): a config block that makes `index` again."""
    s = index.settings
    return {
        "@misc": ANNOY_INDEX,
        "n_trees": s.n_trees,
        "search_k": s.search_k,
        "seed": s.seed,
        "build_precision": s.build_precision,
        "search_threads": index.search_threads,
    }
