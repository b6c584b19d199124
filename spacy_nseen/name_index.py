"""Approximate nearest-neighbour search over name vectors with Annoy (NSEEN §3.2, Algorithm 2).

Vectors are L2-normalised, so Annoy's angular distance d relates to the cosine by cos = 1 − d²/2.
The index file is memory-mapped on load, so processes that load the same file share its pages.
"""
import json
from pathlib import Path
from typing import Optional, Tuple, Union

import numpy
from annoy import AnnoyIndex

from .about import ARTIFACT_FORMAT_VERSION
from .errors import ArtifactError

REBUILD = "Rebuild the index (nlp.initialize() or the project's index step) or copy the complete directory again."


class AnnoyNameIndex:
    """An Annoy index over the name vectors of a reference set.

    dim (int): vector width.
    n_trees (int): Annoy trees (more: better recall, bigger file, slower build).
    search_k (int): nodes inspected per query (-1: Annoy's default, n_trees × n).
    seed (int): Annoy's random seed, so the same vectors give the same index.
    """

    def __init__(self, dim: int, n_trees: int = 50, search_k: int = -1, seed: int = 0) -> None:
        self.dim = dim
        self.n_trees = n_trees
        self.search_k = search_k
        self.seed = seed
        self._annoy: Optional[AnnoyIndex] = None
        self.n_items = 0

    @classmethod
    def build(cls, vectors: numpy.ndarray, n_trees: int = 50, search_k: int = -1, seed: int = 0, n_jobs: int = -1) -> "AnnoyNameIndex":
        """Index the rows of a (n, dim) float matrix; row i gets item id i."""
        if vectors.ndim != 2 or len(vectors) == 0:
            raise ValueError(f"expected a non-empty (n, dim) matrix, got shape {vectors.shape}")
        index = cls(int(vectors.shape[1]), n_trees=n_trees, search_k=search_k, seed=seed)
        annoy = AnnoyIndex(index.dim, "angular")
        annoy.set_seed(seed)
        for i, vector in enumerate(numpy.asarray(vectors, dtype=numpy.float32)):
            annoy.add_item(i, vector)
        annoy.build(n_trees, n_jobs=n_jobs)
        index._annoy = annoy
        index.n_items = len(vectors)
        return index

    def query(self, vectors: numpy.ndarray, n: int) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """Find the `n` nearest names of each query vector.

        RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): item ids (int64, -1 where fewer were found) and
            cosine similarities (float32, -inf where no item), both of shape (len(vectors), n).
        """
        annoy = self._require()
        n = max(1, min(n, self.n_items))
        ids = numpy.full((len(vectors), n), -1, dtype=numpy.int64)
        sims = numpy.full((len(vectors), n), -numpy.inf, dtype=numpy.float32)
        for row, vector in enumerate(vectors):
            found, dists = annoy.get_nns_by_vector(vector, n, search_k=self.search_k, include_distances=True)
            ids[row, : len(found)] = found
            sims[row, : len(found)] = 1.0 - numpy.square(numpy.asarray(dists, dtype=numpy.float32)) / 2.0
        return ids, sims

    def item_vector(self, item: int) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the stored vector of one item."""
        return numpy.asarray(self._require().get_item_vector(item), dtype=numpy.float32)

    def save(self, path: Union[str, Path]) -> None:
        """Write `path` (the Annoy file) and `path` + ".json" (its metadata)."""
        path = Path(path)
        self._require().save(str(path))
        meta = {
            "format_version": ARTIFACT_FORMAT_VERSION,
            "dim": self.dim,
            "n_items": self.n_items,
            "n_trees": self.n_trees,
            "search_k": self.search_k,
            "seed": self.seed,
            "metric": "angular",
            "file_size": path.stat().st_size,
        }
        Path(str(path) + ".json").write_text(json.dumps(meta, indent=2), encoding="utf8")

    @classmethod
    def load(cls, path: Union[str, Path], dim: int, n_items: int, search_k: Optional[int] = None) -> "AnnoyNameIndex":
        """Memory-map a saved index, checking it against its metadata and the expected shape.

        dim (int): the vector width the encoder produces.
        n_items (int): the number of names in the reference set the index belongs to.
        """
        path = Path(path)
        meta_path = Path(str(path) + ".json")
        for required in (path, meta_path):
            if not required.exists():
                raise ArtifactError(required, "index file not found", REBUILD)
        try:
            meta = json.loads(meta_path.read_text(encoding="utf8"))
            expected_size = int(meta["file_size"])
            stored_dim, stored_items = int(meta["dim"]), int(meta["n_items"])
            version = meta["format_version"]
        except (ValueError, KeyError, TypeError) as err:
            raise ArtifactError(meta_path, f"not valid index metadata ({err})", REBUILD) from None
        if version != ARTIFACT_FORMAT_VERSION:
            raise ArtifactError(meta_path, f"index format {version}, this spacy_nseen reads {ARTIFACT_FORMAT_VERSION}", REBUILD)
        size = path.stat().st_size
        if size != expected_size:
            raise ArtifactError(path, f"is {size} bytes, its metadata says {expected_size} (truncated or replaced)", REBUILD)
        if stored_dim != dim:
            raise ArtifactError(path, f"was built with {stored_dim}-d vectors, the encoder makes {dim}-d vectors", REBUILD)
        if stored_items != n_items:
            raise ArtifactError(path, f"holds {stored_items} names, the reference set has {n_items}", REBUILD)
        index = cls(dim, n_trees=int(meta.get("n_trees", 0)), search_k=int(meta.get("search_k", -1) if search_k is None else search_k), seed=int(meta.get("seed", 0)))
        annoy = AnnoyIndex(dim, "angular")
        try:
            annoy.load(str(path), prefault=False)
        except OSError as err:
            raise ArtifactError(path, f"cannot be loaded by Annoy ({err})", REBUILD) from None
        if annoy.get_n_items() != n_items:
            raise ArtifactError(path, f"holds {annoy.get_n_items()} items, expected {n_items}", REBUILD)
        index._annoy = annoy
        index.n_items = n_items
        return index

    def _require(self) -> AnnoyIndex:
        if self._annoy is None:
            raise RuntimeError("the index is empty: build() or load() it first")
        return self._annoy
