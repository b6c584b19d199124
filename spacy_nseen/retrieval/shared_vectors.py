"""Names that share one vector: the rows of a reference set mapped to the distinct vectors an index stores.

Orthologs share names (`Trp53` in mouse and rat, `Sod1` in four organisms), and a case-folding encoder reads
`DRP1` and `Drp1` alike: in the 5-organism UniProt set, 382,946 names are 217,278 distinct encoder inputs. The
Annoy index stores each distinct vector once (a smaller file, fewer pages touched by queries, fewer names to
encode); `VectorRows` says which name rows each stored vector stands for, and turns a search's vectors back into
name rows. An identity map (one vector per row) is what an index built from row vectors has.

The TF-IDF indexes (`char_tfidf`, `word_tfidf`) share rows the same way: names with the same lowercased text
(or the same terms) have one stored TF-IDF row, and `best_rows` turns a search over the stored rows into the
ranking a search over every name gives.
"""

from typing import Dict, Hashable, List, Sequence, Tuple

import numpy


class VectorRows:
    """Row → vector and vector → rows maps of a reference set's names.

    row_vectors (numpy.ndarray): int32, the stored vector of each row.
    indptr, rows (numpy.ndarray): int32 CSR: the rows of vector v are `rows[indptr[v]:indptr[v + 1]]`, ascending.
    """

    def __init__(self, row_vectors: numpy.ndarray, indptr: numpy.ndarray, rows: numpy.ndarray) -> None:
        self.row_vectors = row_vectors
        self.indptr = indptr
        self.rows = rows

    @classmethod
    def identity(cls, n_rows: int) -> "VectorRows":
        """RETURNS (VectorRows): one vector per row (an index built from row vectors)."""
        arange = numpy.arange(n_rows, dtype=numpy.int32)
        return cls(arange, numpy.arange(n_rows + 1, dtype=numpy.int32), arange)

    @classmethod
    def from_keys(cls, keys: Sequence[Hashable]) -> Tuple["VectorRows", List[int]]:
        """Group rows whose keys are equal (e.g. `encoder_input_keys`) under one vector, numbered in order of
        first appearance.

        RETURNS (Tuple[VectorRows, List[int]]): the map, and the first row of each vector (the one to encode).
        """
        ids: Dict[Hashable, int] = {}
        first_rows: List[int] = []
        row_vectors = numpy.empty(len(keys), dtype=numpy.int32)
        for row, key in enumerate(keys):
            vector = ids.get(key)
            if vector is None:
                vector = ids[key] = len(first_rows)
                first_rows.append(row)
            row_vectors[row] = vector
        return cls.from_row_vectors(row_vectors, len(first_rows)), first_rows

    @classmethod
    def from_row_vectors(cls, row_vectors: numpy.ndarray, n_vectors: int) -> "VectorRows":
        """RETURNS (VectorRows): the map with its CSR built from the row → vector array."""
        row_vectors = numpy.asarray(row_vectors, dtype=numpy.int32)
        rows = numpy.argsort(row_vectors, kind="stable").astype(numpy.int32)
        counts = (
            numpy.bincount(row_vectors, minlength=n_vectors)
            if len(row_vectors)
            else numpy.zeros(n_vectors, numpy.int64)
        )
        indptr = numpy.zeros(n_vectors + 1, dtype=numpy.int32)
        numpy.cumsum(counts, out=indptr[1:])
        return cls(row_vectors, indptr, rows)

    @property
    def n_rows(self) -> int:
        return len(self.row_vectors)

    @property
    def n_vectors(self) -> int:
        return len(self.indptr) - 1

    @property
    def sizes(self) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): int64, the number of rows of each vector."""
        return numpy.diff(self.indptr).astype(numpy.int64)

    def vectors_of(self, rows: numpy.ndarray) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): int64, the stored vector of each row; IndexError for a row out of range
        (a negative row would otherwise wrap around)."""
        rows = numpy.asarray(rows, dtype=numpy.int64)
        if rows.size and (int(rows.min()) < 0 or int(rows.max()) >= self.n_rows):
            raise IndexError(f"name index out of range [0, {self.n_rows})")
        return self.row_vectors[rows].astype(numpy.int64)

    @property
    def is_identity(self) -> bool:
        """RETURNS (bool): every row has a vector of its own, in row order."""
        return self.n_vectors == self.n_rows and bool(numpy.array_equal(self.row_vectors, numpy.arange(self.n_rows)))

    def expand(self, vector_ids: numpy.ndarray, sims: numpy.ndarray, n: int) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """Turn each query's nearest vectors into name rows: the rows of each vector in turn, each with the
        vector's similarity, the first `n` kept.

        vector_ids (numpy.ndarray): (n_queries, k) vector ids, -1 where none; sims: their similarities.
        RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): int64 rows (-1 where fewer) and float32 similarities
            (-inf where none), both (n_queries, n).
        """
        n_queries = len(vector_ids)
        out_rows = numpy.full((n_queries, n), -1, dtype=numpy.int64)
        out_sims = numpy.full((n_queries, n), -numpy.inf, dtype=numpy.float32)
        found = numpy.asarray(vector_ids, dtype=numpy.int64).ravel()
        values = numpy.asarray(sims, dtype=numpy.float32).ravel()
        valid = found >= 0
        safe = numpy.where(valid, found, 0)
        counts = numpy.where(valid, self.indptr[safe + 1] - self.indptr[safe], 0).astype(numpy.int64)
        total = int(counts.sum())
        if total == 0:
            return out_rows, out_sims
        # every found vector's rows, vector after vector and query after query: their places in `rows`
        ends = numpy.cumsum(counts)
        offsets = numpy.repeat(self.indptr[safe].astype(numpy.int64) - ends + counts, counts) + numpy.arange(total)
        per_query = counts.reshape(n_queries, -1).sum(axis=1)
        query = numpy.repeat(numpy.arange(n_queries), per_query)
        place = numpy.arange(total) - numpy.repeat(numpy.cumsum(per_query) - per_query, per_query)
        keep = place < n
        out_rows[query[keep], place[keep]] = self.rows[offsets[keep]]
        out_sims[query[keep], place[keep]] = numpy.repeat(values, counts)[keep]
        return out_rows, out_sims

    def best_rows(
        self, vector_ids: numpy.ndarray, scores: numpy.ndarray, k: int
    ) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """The k best name rows of each query's k best vectors, by score, then lower row first: the ranking a
        search over the rows themselves gives, when the vectors were ranked by score, then lower vector id
        (vectors are numbered in order of their first row, as `from_keys` does, so every vector ranked above a
        row's vector holds a row ranked above it, and k vectors hold the k best rows).

        vector_ids (numpy.ndarray): (n_queries, k') vector ids, -1 where none; scores: their scores.
        RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): int64 rows (-1 where fewer) and float32 scores (0 where
            none), both (n_queries, k).
        """
        found = numpy.asarray(vector_ids, dtype=numpy.int64).reshape(len(vector_ids), -1)
        valid = found >= 0
        safe = numpy.where(valid, found, 0)
        counts = numpy.where(valid, self.indptr[safe + 1] - self.indptr[safe], 0)
        width = max(k, int(counts.sum(axis=1).max()) if found.size else 0)
        rows, sims = self.expand(found, scores, width)
        order = numpy.lexsort((rows, -sims), axis=1)[:, :k]
        rows = numpy.take_along_axis(rows, order, axis=1)
        sims = numpy.take_along_axis(sims, order, axis=1)
        sims[rows < 0] = 0.0
        return rows, sims

    def to_arrays(self) -> Dict[str, numpy.ndarray]:
        """RETURNS (Dict[str, numpy.ndarray]): the arrays `from_arrays` reads."""
        return {"row_vectors": self.row_vectors, "indptr": self.indptr, "rows": self.rows}

    @classmethod
    def from_arrays(cls, arrays: Dict[str, numpy.ndarray], n_rows: int, n_vectors: int) -> "VectorRows":
        """RETURNS (VectorRows): the map, checked against the names and vectors it must describe.

        Raises ValueError (with what is wrong) when an array is missing or inconsistent.
        """
        missing = [key for key in ("row_vectors", "indptr", "rows") if key not in arrays]
        if missing:
            raise ValueError(f"arrays missing: {', '.join(missing)}")
        row_vectors, indptr, rows = (numpy.asarray(arrays[key]) for key in ("row_vectors", "indptr", "rows"))
        if len(row_vectors) != n_rows or len(rows) != n_rows:
            raise ValueError(f"maps {len(row_vectors)} names, the reference set has {n_rows}")
        if len(indptr) != n_vectors + 1 or (n_vectors and (indptr[0] != 0 or indptr[-1] != n_rows)):
            raise ValueError(f"describes {len(indptr) - 1} vectors, the index stores {n_vectors}")
        if n_rows and (
            row_vectors.min() < 0 or row_vectors.max() >= n_vectors or rows.min() < 0 or rows.max() >= n_rows
        ):
            raise ValueError("holds a row or vector id out of range")
        return cls(row_vectors, indptr, rows)
