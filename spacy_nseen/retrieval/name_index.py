"""Approximate nearest-neighbour search over name vectors with Annoy (NSEEN §3.2, Algorithm 2).

Vectors are L2-normalised, so Annoy's angular distance d relates to the cosine by cos = 1 − d²/2.
The index file is memory-mapped on load, so processes that load the same file share its pages. The item
vectors (`vectors`) are a numpy view of Annoy's own mapping where the platform shows it (Linux
/proc/self/maps), so each page of the file is mapped, and counted in the resident set size, once; elsewhere
the file is mapped a second time.

A loaded index never lets Annoy remap its file: Annoy's `save()` unmaps the index and maps the newly written
file, which would leave the vector view pointing at unmapped memory (a segfault at the next look-up). `save`
therefore writes the bytes of the mapping it loaded itself, into a new file renamed into place, so no mapping
of any process is truncated or replaced under it.

Names the encoder reads alike share one stored vector (`shared_vectors.VectorRows`, written beside the index as
`names.ann.rows.npz` when some do): searches return name rows, and `n_items` counts names, not stored vectors.

Names added after the build (`with_added`) are a side block searched exactly (`added_rows.AddedVectors`), their
hits joined to Annoy's; `n_items` counts them, the saved file and its metadata hold the built names only (the
linker saves the added vectors itself: `linker.added_names_file`).
"""

import copy
import json
import os
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, Optional, Set, Tuple, Union

import numpy
from annoy import AnnoyIndex

from ..about import ARTIFACT_FORMAT_VERSION
from ..errors import ArtifactError
from .added_rows import AddedVectors, join_hits
from .array_io import load_npz, save_npz
from .page_advice import advise_random_region
from .shared_vectors import VectorRows

# The one source of the index defaults (`linker.settings.IndexSettings` and every builder use them): 20 trees
# give the Hits@1 of 50 with 45% smaller files; 500 nodes per query (results/benchmark.md).
N_TREES = 20
SEARCH_K = 500
ROWS_SUFFIX = ".rows.npz"  # beside the Annoy file: which names share each stored vector
REBUILD = "Rebuild the index (nlp.initialize() or the project's index step) or copy the complete directory again."


class AnnoyNameIndex:
    """An Annoy index over the name vectors of a reference set.

    dim (int): vector width.
    n_trees (int): Annoy trees (more: better recall, bigger file, slower build).
    search_k (int): nodes inspected per query (-1: Annoy's default, n_trees × n).
    seed (int): Annoy's random seed, so the same vectors give the same index.
    `n_items` is the number of names the index answers with, `n_vectors` the number of vectors Annoy stores.
    """

    def __init__(self, dim: int, n_trees: int = N_TREES, search_k: int = SEARCH_K, seed: int = 0) -> None:
        self.dim = dim
        self.n_trees = n_trees
        self.search_k = search_k
        self.seed = seed
        self._annoy: Optional[AnnoyIndex] = None
        self._vectors: Optional[numpy.ndarray] = None
        self._file_bytes: Optional[numpy.ndarray] = None  # the loaded file's bytes (a mapping `save` writes out)
        self.added: Optional[AddedVectors] = None  # names added after the build (rows after the built ones)
        self._set_rows(VectorRows.identity(0))

    @classmethod
    def build(
        cls,
        vectors: numpy.ndarray,
        n_trees: int = N_TREES,
        search_k: int = SEARCH_K,
        seed: int = 0,
        n_jobs: int = 1,
        rows: Optional[VectorRows] = None,
    ) -> "AnnoyNameIndex":
        """Index the rows of a (n, dim) float matrix: row i is name i, or, with `rows`, stored vector i of the
        names `rows` maps to it.

        n_jobs (int): Annoy build threads. Only 1 gives the same index for the same vectors and seed: with
            more, trees are stored in the order the threads finish them.
        """
        if vectors.ndim != 2 or len(vectors) == 0:
            raise ValueError(f"expected a non-empty (n, dim) matrix, got shape {vectors.shape}")
        rows = VectorRows.identity(len(vectors)) if rows is None else rows
        if rows.n_vectors != len(vectors):
            raise ValueError(f"the name map describes {rows.n_vectors} vectors, {len(vectors)} were given")
        index = cls(int(vectors.shape[1]), n_trees=n_trees, search_k=search_k, seed=seed)
        annoy = AnnoyIndex(index.dim, "angular")
        annoy.set_seed(seed)
        for i, vector in enumerate(numpy.asarray(vectors, dtype=numpy.float32)):
            annoy.add_item(i, vector)
        annoy.build(n_trees, n_jobs=n_jobs)
        index._annoy = annoy
        index._vectors = numpy.ascontiguousarray(vectors, dtype=numpy.float32)
        index._set_rows(rows)
        return index

    @property
    def n_vectors(self) -> int:
        """RETURNS (int): the vectors Annoy stores (fewer than `n_items` where names share one)."""
        return self.rows.n_vectors

    @property
    def vectors(self) -> Optional[numpy.ndarray]:
        """RETURNS (Optional[numpy.ndarray]): the (n_vectors, dim) float32 stored vectors (a read-only view of
        the memory-mapped file after `load`), or None when Annoy's file layout is not the one expected."""
        return self._vectors

    @property
    def n_built(self) -> int:
        """RETURNS (int): the names of the built index (`n_items` less the added ones)."""
        return self.rows.n_rows

    def with_added(self, vectors: numpy.ndarray) -> "AnnoyNameIndex":
        """RETURNS (AnnoyNameIndex): a copy of this index (sharing the built one) that also searches `vectors`
        (float32, L2-normalised), as the names after its last row, exactly."""
        vectors = numpy.asarray(vectors, dtype=numpy.float32)
        if vectors.ndim != 2 or vectors.shape[1] != self.dim:
            raise ValueError(f"expected (n, {self.dim}) vectors, got shape {vectors.shape}")
        twin = copy.copy(self)
        twin.added = (
            AddedVectors(self.n_built, numpy.ascontiguousarray(vectors))
            if self.added is None
            else self.added.appended(vectors)
        )
        twin.n_items = twin.n_built + len(twin.added)
        return twin

    def item_vectors(self, items: numpy.ndarray) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the float32 vectors of several names (rows), shape (len(items), dim)."""
        if self.added is not None:
            items = numpy.asarray(items, dtype=numpy.int64)
            built = items < self.n_built
            if not built.all():
                out = numpy.empty((len(items), self.dim), dtype=numpy.float32)
                out[~built] = self.added.vectors_of(items[~built])
                out[built] = self._built_vectors(items[built])
                return out
        return self._built_vectors(items)

    def _built_vectors(self, items: numpy.ndarray) -> numpy.ndarray:
        stored = self._stored(items)
        if self._vectors is not None:
            return numpy.asarray(self._vectors[stored], dtype=numpy.float32)
        annoy = self._require()
        return (
            numpy.stack([numpy.asarray(annoy.get_item_vector(int(v)), dtype=numpy.float32) for v in stored])
            if len(stored)
            else numpy.zeros((0, self.dim), numpy.float32)
        )

    def query(self, vectors: numpy.ndarray, n: int, n_threads: int = 1) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """Find the `n` nearest names of each query vector: the names of the nearest stored vectors, a vector's
        names in row order, the first `n` kept.

        n_threads (int): threads searching at once (Annoy releases the GIL while it searches).
        RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): name rows (int64, -1 where fewer were found) and
            cosine similarities (float32, -inf where no item), both of shape (len(vectors), n).
        """
        annoy = self._require()
        n_asked = n
        n = max(1, min(n, self.n_built))
        n_vectors = max(1, min(n, self.n_vectors))
        ids = numpy.full((len(vectors), n_vectors), -1, dtype=numpy.int64)
        sims = numpy.full((len(vectors), n_vectors), -numpy.inf, dtype=numpy.float32)

        def search(rows: range) -> None:
            for row in rows:
                found, dists = annoy.get_nns_by_vector(
                    vectors[row], n_vectors, search_k=self.search_k, include_distances=True
                )
                ids[row, : len(found)] = found
                sims[row, : len(found)] = 1.0 - numpy.square(numpy.asarray(dists, dtype=numpy.float32)) / 2.0

        if n_threads <= 1 or len(vectors) < 2 * n_threads:
            search(range(len(vectors)))
        else:
            step = -(-len(vectors) // n_threads)
            with ThreadPoolExecutor(n_threads) as pool:
                list(pool.map(search, [range(i, min(i + step, len(vectors))) for i in range(0, len(vectors), step)]))
        found = (ids, sims) if not self._shared else self.rows.expand(ids, sims, n)
        if self.added is None:
            return found
        n_asked = max(1, n_asked)
        return join_hits(found, self.added.search(vectors, n_asked), n_asked, -numpy.inf)

    def item_vector(self, item: int) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the vector of one name (row)."""
        if self.added is not None and item >= self.n_built:
            return numpy.asarray(self.added.vectors_of(numpy.asarray([item]))[0], dtype=numpy.float32)
        return numpy.asarray(
            self._require().get_item_vector(int(self.rows.row_vectors[item]) if self._shared else int(item)),
            dtype=numpy.float32,
        )

    def _stored(self, items: numpy.ndarray) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the stored vector of each name (the names themselves where each has its own)."""
        items = numpy.asarray(items, dtype=numpy.int64)
        return self.rows.row_vectors[items] if self._shared else items

    def save(self, path: Union[str, Path]) -> None:
        """Write `path` (the Annoy file), `path` + ".json" (its metadata) and, where names share vectors,
        `path` + ROWS_SUFFIX (which names each vector stands for). Each file is written whole under another name
        and renamed into place; the index stays usable, and a loaded index keeps its own mapping."""
        path = Path(path)
        part = path.with_name(path.name + ".part")
        if part.exists():
            part.unlink()
        if self._file_bytes is not None:
            _write_bytes(self._file_bytes, part)
        else:
            # A built index: Annoy writes its nodes and maps the written file. Its vectors are an in-memory
            # copy, so nothing views the memory Annoy releases.
            self._require().save(str(part))
        part.replace(path)
        rows_path = Path(str(path) + ROWS_SUFFIX)
        if self._shared:
            save_npz(rows_path, self.rows.to_arrays())
        elif rows_path.exists():
            rows_path.unlink()
        meta = {
            "format_version": ARTIFACT_FORMAT_VERSION,
            "dim": self.dim,
            "n_items": self.n_built,
            "n_vectors": self.n_vectors,
            "shared_vectors": self._shared,
            "n_trees": self.n_trees,
            "search_k": self.search_k,
            "seed": self.seed,
            "metric": "angular",
            "file_size": path.stat().st_size,
        }
        meta_part = Path(str(path) + ".json.part")
        meta_part.write_text(json.dumps(meta, indent=2), encoding="utf8")
        meta_part.replace(Path(str(path) + ".json"))

    @classmethod
    def load(cls, path: Union[str, Path], dim: int, n_items: int, search_k: Optional[int] = None) -> "AnnoyNameIndex":
        """Memory-map a saved index, checking it against its metadata and the expected shape.

        dim (int): the vector width the encoder produces.
        n_items (int): the number of names in the reference set the index belongs to.
        An index whose metadata has no `n_vectors` (saved before names could share vectors) has one per name.
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
            n_vectors = int(meta.get("n_vectors", stored_items))
            shared = bool(meta.get("shared_vectors", False))
            version = meta["format_version"]
        except (ValueError, KeyError, TypeError) as err:
            raise ArtifactError(meta_path, f"not valid index metadata ({err})", REBUILD) from None
        if version != ARTIFACT_FORMAT_VERSION:
            raise ArtifactError(
                meta_path, f"index format {version}, this spacy_nseen reads {ARTIFACT_FORMAT_VERSION}", REBUILD
            )
        size = path.stat().st_size
        if size != expected_size:
            raise ArtifactError(
                path, f"is {size} bytes, its metadata says {expected_size} (truncated or replaced)", REBUILD
            )
        if stored_dim != dim:
            raise ArtifactError(
                path, f"was built with {stored_dim}-d vectors, the encoder makes {dim}-d vectors", REBUILD
            )
        if stored_items != n_items:
            raise ArtifactError(path, f"holds {stored_items} names, the reference set has {n_items}", REBUILD)
        rows = _load_rows(Path(str(path) + ROWS_SUFFIX), n_items, n_vectors) if shared else None
        if rows is None and n_vectors != n_items:
            raise ArtifactError(
                meta_path,
                f"says {n_vectors} vectors for {n_items} names without a map of which names share them",
                REBUILD,
            )
        saved_search_k = int(meta.get("search_k", -1) if search_k is None else search_k)
        index = cls(dim, n_trees=int(meta.get("n_trees", 0)), search_k=saved_search_k, seed=int(meta.get("seed", 0)))
        annoy = AnnoyIndex(dim, "angular")
        mapped_before = _file_mappings(path)
        try:
            annoy.load(str(path), prefault=False)
        except OSError as err:
            raise ArtifactError(path, f"cannot be loaded by Annoy ({err})", REBUILD) from None
        if annoy.get_n_items() != n_vectors:
            raise ArtifactError(path, f"holds {annoy.get_n_items()} vectors, its metadata says {n_vectors}", REBUILD)
        index._annoy = annoy
        index._set_rows(VectorRows.identity(n_items) if rows is None else rows)
        region = _annoy_region(annoy, path, size, mapped_before)
        # Without Annoy's own mapping in view, the file is mapped a second time (a mapping numpy owns).
        index._file_bytes = (
            region if region is not None else numpy.memmap(path, dtype=numpy.uint8, mode="r", shape=(size,))
        )
        index._vectors = _item_vector_view(annoy, dim, n_vectors, index._file_bytes)
        return index

    def _set_rows(self, rows: VectorRows) -> None:
        self.rows = rows
        self.n_items = rows.n_rows + (len(self.added) if self.added is not None else 0)
        self._shared = not rows.is_identity

    def _require(self) -> AnnoyIndex:
        if self._annoy is None:
            raise RuntimeError("the index is empty: build() or load() it first")
        return self._annoy


def _load_rows(path: Path, n_items: int, n_vectors: int) -> VectorRows:
    """RETURNS (VectorRows): the names of each stored vector, read from `path` (an ArtifactError naming it when it
    is missing or does not fit)."""
    if not path.exists():
        raise ArtifactError(
            path,
            f"not found: the index stores {n_vectors} vectors for {n_items} names and this file "
            "says which names share each",
            REBUILD,
        )
    try:
        return VectorRows.from_arrays(load_npz(path), n_items, n_vectors)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
        raise ArtifactError(path, f"not a valid map of names to stored vectors ({err})", REBUILD) from None


class _MappedRegion:
    """Bytes of a mapping Annoy owns, for numpy: a view's base keeps this (and so Annoy, which unmaps the
    file when it is freed) alive."""

    def __init__(self, owner: AnnoyIndex, start: int, length: int) -> None:
        self.owner = owner
        self.__array_interface__: Dict[str, Any] = {
            "shape": (length,),
            "typestr": "|u1",
            "data": (start, True),
            "version": 3,
        }


def _file_mappings(path: Path) -> Set[Tuple[int, int]]:
    """RETURNS (Set[Tuple[int, int]]): (start, end) addresses of this process's mappings of the file at offset
    0, from /proc/self/maps (empty where there is none)."""
    try:
        stat = os.stat(path)
        lines = Path("/proc/self/maps").read_text().splitlines()
    except OSError:
        return set()
    device = f"{os.major(stat.st_dev):02x}:{os.minor(stat.st_dev):02x}"
    found = set()
    for line in lines:
        fields = line.split(maxsplit=5)
        if len(fields) >= 5 and fields[4] == str(stat.st_ino) and fields[3] == device and int(fields[2], 16) == 0:
            start, end = (int(address, 16) for address in fields[0].split("-"))
            found.add((start, end))
    return found


def _annoy_region(
    annoy: AnnoyIndex, path: Path, size: int, mapped_before: Set[Tuple[int, int]]
) -> Optional[numpy.ndarray]:
    """RETURNS (Optional[numpy.ndarray]): the bytes of the one mapping of `path` that appeared while Annoy
    loaded it, or None if there is not exactly one (another platform, or another thread mapping it too)."""
    new = _file_mappings(path) - mapped_before
    if len(new) != 1:
        return None
    start, end = new.pop()
    if end - start < size:
        return None
    advise_random_region(start, end - start)  # queries visit nodes at random: no read-ahead (page_advice)
    return numpy.asarray(_MappedRegion(annoy, start, size))


def _item_vector_view(annoy: AnnoyIndex, dim: int, n_items: int, file_bytes: numpy.ndarray) -> Optional[numpy.ndarray]:
    """View the item vectors of an angular Annoy file: items are its first nodes, each an int32 descendant
    count, two int32 children and `dim` float32 values. `file_bytes` is a mapping of the whole file (Annoy's
    own, or a second one). Returns None if a spot check disagrees with Annoy."""
    node = numpy.dtype([("n_descendants", "<i4"), ("children", "<i4", (2,)), ("v", "<f4", (dim,))])
    if len(file_bytes) < node.itemsize * n_items:
        return None
    vectors = file_bytes[: node.itemsize * n_items].view(node)["v"]
    for item in {0, n_items // 2, n_items - 1}:
        if not numpy.array_equal(vectors[item], numpy.asarray(annoy.get_item_vector(item), dtype=numpy.float32)):
            return None
    return vectors


def _write_bytes(data: numpy.ndarray, path: Path, chunk: int = 1 << 26) -> None:
    """Write a byte array to a new file in chunks (a mapped file is not read into memory whole)."""
    with open(path, "xb") as file_:
        for start in range(0, len(data), chunk):
            file_.write(numpy.ascontiguousarray(data[start : start + chunk]).data)
