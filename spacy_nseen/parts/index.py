"""The index: how each reference set's Annoy index is built and searched (`[components.nseen_linker.index]`)."""

from dataclasses import dataclass

from spacy.util import registry

from ..linker.settings import IndexSettings, LinkerSettings, Precision

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
    n_trees: int = IndexSettings.n_trees,
    search_k: int = IndexSettings.search_k,
    seed: int = IndexSettings.seed,
    build_precision: Precision = IndexSettings.build_precision,
    search_threads: int = LinkerSettings.search_threads,
) -> IndexPart:
    """Annoy over the name vectors: `n_trees` trees (built at `initialize` from an encoder and a reference set),
    `search_k` nodes visited per query, names encoded at `build_precision`."""
    return IndexPart(IndexSettings(n_trees, search_k, seed, build_precision), search_threads)
