import gc
import json
from pathlib import Path

import numpy
import pytest

from spacy_nseen.errors import ArtifactError
from spacy_nseen.retrieval import name_index
from spacy_nseen.retrieval.name_index import AnnoyNameIndex


def unit_rows(n: int, dim: int, seed: int = 0) -> numpy.ndarray:
    vectors = numpy.random.default_rng(seed).normal(size=(n, dim)).astype(numpy.float32)
    return vectors / numpy.linalg.norm(vectors, axis=1, keepdims=True)


VECTORS = unit_rows(30, 8)
QUERIES = unit_rows(5, 8, seed=1)


def exact_neighbours(queries, vectors, n):
    sims = queries @ vectors.T
    return numpy.argsort(-sims, axis=1)[:, :n], numpy.sort(sims, axis=1)[:, ::-1][:, :n]


def test_exact_neighbours_and_cosines_on_tiny_data():
    index = AnnoyNameIndex.build(VECTORS, n_trees=10, n_jobs=1)
    ids, sims = index.query(QUERIES, 5)
    expected_ids, expected_sims = exact_neighbours(QUERIES, VECTORS, 5)
    numpy.testing.assert_array_equal(ids, expected_ids)
    numpy.testing.assert_allclose(sims, expected_sims, atol=1e-5)
    assert ids.dtype == numpy.int64 and sims.dtype == numpy.float32


def test_hand_worked_cosines():
    vectors = numpy.array([[1, 0], [0, 1], [-1, 0], [0.6, 0.8]], dtype=numpy.float32)
    index = AnnoyNameIndex.build(vectors, n_trees=2, n_jobs=1)
    ids, sims = index.query(numpy.array([[1, 0]], dtype=numpy.float32), 4)
    assert ids.tolist() == [[0, 3, 1, 2]]
    numpy.testing.assert_allclose(sims[0], [1.0, 0.6, 0.0, -1.0], atol=1e-5)
    numpy.testing.assert_allclose(index.item_vector(3), [0.6, 0.8], atol=1e-6)


def test_query_more_than_there_are_items():
    index = AnnoyNameIndex.build(VECTORS[:3], n_trees=2, n_jobs=1)
    ids, sims = index.query(QUERIES[:1], 10)
    assert ids.shape == (1, 3) and sorted(ids[0].tolist()) == [0, 1, 2]
    assert numpy.isfinite(sims).all()


def test_same_vectors_and_seed_give_the_same_index(tmp_path):
    a = AnnoyNameIndex.build(VECTORS, n_trees=5, seed=3, n_jobs=1)
    b = AnnoyNameIndex.build(VECTORS, n_trees=5, seed=3, n_jobs=1)
    a.save(tmp_path / "a.ann")
    b.save(tmp_path / "b.ann")
    assert (tmp_path / "a.ann").read_bytes() == (tmp_path / "b.ann").read_bytes()


def test_save_load_round_trip(tmp_path):
    index = AnnoyNameIndex.build(VECTORS, n_trees=10, search_k=500, n_jobs=1)
    path = tmp_path / "names.ann"
    index.save(path)
    meta = json.loads((tmp_path / "names.ann.json").read_text())
    assert meta["dim"] == 8 and meta["n_items"] == 30 and meta["file_size"] == path.stat().st_size
    loaded = AnnoyNameIndex.load(path, dim=8, n_items=30)
    assert loaded.search_k == 500 and loaded.n_trees == 10
    for got, expected in zip(loaded.query(QUERIES, 7), index.query(QUERIES, 7)):
        numpy.testing.assert_array_equal(got, expected)
    assert AnnoyNameIndex.load(path, dim=8, n_items=30, search_k=-1).search_k == -1


def test_load_errors_name_the_file(tmp_path):
    path = tmp_path / "names.ann"
    with pytest.raises(ArtifactError, match="not found") as err:
        AnnoyNameIndex.load(path, dim=8, n_items=30)
    assert err.value.path == path
    AnnoyNameIndex.build(VECTORS, n_trees=3, n_jobs=1).save(path)
    with pytest.raises(ArtifactError, match="8-d vectors, the encoder makes 16-d") as err:
        AnnoyNameIndex.load(path, dim=16, n_items=30)
    assert err.value.path == path and str(path) in str(err.value)
    with pytest.raises(ArtifactError, match="holds 30 names, the reference set has 31") as err:
        AnnoyNameIndex.load(path, dim=8, n_items=31)
    assert err.value.path == path
    original = path.read_bytes()
    path.write_bytes(original[: len(original) // 2])
    with pytest.raises(ArtifactError, match="truncated") as err:
        AnnoyNameIndex.load(path, dim=8, n_items=30)
    assert err.value.path == path
    path.write_bytes(original)
    meta_path = tmp_path / "names.ann.json"
    meta = json.loads(meta_path.read_text())
    meta_path.write_text(json.dumps({**meta, "format_version": 99}))
    with pytest.raises(ArtifactError, match="index format 99") as err:
        AnnoyNameIndex.load(path, dim=8, n_items=30)
    assert err.value.path == meta_path
    meta_path.write_text("{not json")
    with pytest.raises(ArtifactError, match="not valid index metadata"):
        AnnoyNameIndex.load(path, dim=8, n_items=30)
    meta_path.unlink()
    with pytest.raises(ArtifactError, match="not found") as err:
        AnnoyNameIndex.load(path, dim=8, n_items=30)
    assert err.value.path == meta_path


def test_file_of_the_right_size_but_not_annoy(tmp_path):
    path = tmp_path / "names.ann"
    AnnoyNameIndex.build(VECTORS, n_trees=3, n_jobs=1).save(path)
    path.write_bytes(b"\0" * path.stat().st_size)
    with pytest.raises(ArtifactError) as err:
        AnnoyNameIndex.load(path, dim=8, n_items=30)
    assert err.value.path == path


def test_misuse():
    with pytest.raises(ValueError, match="non-empty"):
        AnnoyNameIndex.build(numpy.zeros((0, 4), dtype=numpy.float32))
    with pytest.raises(RuntimeError, match="build"):
        AnnoyNameIndex(4).query(QUERIES, 1)


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux /proc/self/maps")
def test_loaded_vectors_are_a_view_of_annoys_own_mapping(tmp_path):
    path = tmp_path / "names.ann"
    AnnoyNameIndex.build(VECTORS, n_trees=4, n_jobs=1).save(path)
    loaded = AnnoyNameIndex.load(path, dim=8, n_items=len(VECTORS))
    assert len(name_index._file_mappings(path)) == 1  # mapped once: by Annoy, and viewed by numpy
    numpy.testing.assert_array_equal(loaded.vectors, VECTORS)
    assert not loaded.vectors.flags.writeable
    second = AnnoyNameIndex.load(path, dim=8, n_items=len(VECTORS))
    assert len(name_index._file_mappings(path)) == 2
    del loaded
    gc.collect()
    assert len(name_index._file_mappings(path)) == 1
    numpy.testing.assert_array_equal(second.item_vectors(numpy.array([3, 0])), VECTORS[[3, 0]])


def test_vectors_fall_back_to_a_second_mapping_when_annoys_is_not_found(tmp_path, monkeypatch):
    path = tmp_path / "names.ann"
    AnnoyNameIndex.build(VECTORS, n_trees=4, n_jobs=1).save(path)
    monkeypatch.setattr(name_index, "_file_mappings", lambda _path: set())
    loaded = AnnoyNameIndex.load(path, dim=8, n_items=len(VECTORS))
    assert isinstance(loaded.vectors.base, numpy.memmap) or isinstance(loaded.vectors, numpy.memmap)
    numpy.testing.assert_array_equal(loaded.vectors, VECTORS)


def shared_index():
    """Five names over three stored vectors: names 0, 2, 4 share vector 0, name 1 has vector 1, name 3 vector 2."""
    from spacy_nseen.retrieval.shared_vectors import VectorRows

    rows, first_rows = VectorRows.from_keys(["a", "b", "a", "c", "a"])
    vectors = numpy.array([[1, 0], [0, 1], [0.6, 0.8]], dtype=numpy.float32)
    return AnnoyNameIndex.build(vectors, n_trees=2, n_jobs=1, rows=rows), vectors


def test_names_sharing_a_vector_are_all_found_and_counted_as_names():
    index, vectors = shared_index()
    assert index.n_items == 5 and index.n_vectors == 3
    ids, sims = index.query(numpy.array([[1, 0]], dtype=numpy.float32), 4)
    assert ids.tolist() == [[0, 2, 4, 3]]
    numpy.testing.assert_allclose(sims[0], [1.0, 1.0, 1.0, 0.6], atol=1e-5)
    numpy.testing.assert_allclose(index.item_vectors(numpy.array([4, 3, 1])), vectors[[0, 2, 1]], atol=1e-6)
    numpy.testing.assert_allclose(index.item_vector(2), vectors[0], atol=1e-6)
    ids, _ = index.query(numpy.array([[0, 1]], dtype=numpy.float32), 10)
    assert ids.shape == (1, 5) and ids[0].tolist()[:2] == [1, 3] and sorted(ids[0].tolist()) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="describes 3 vectors"):
        AnnoyNameIndex.build(vectors[:2], rows=index.rows)


def test_shared_vectors_are_saved_beside_the_index_and_checked_on_load(tmp_path):
    index, _ = shared_index()
    path = tmp_path / "names.ann"
    index.save(path)
    rows_path = tmp_path / ("names.ann" + name_index.ROWS_SUFFIX)
    meta = json.loads((tmp_path / "names.ann.json").read_text())
    assert rows_path.exists() and meta["n_items"] == 5 and meta["n_vectors"] == 3 and meta["shared_vectors"] is True
    loaded = AnnoyNameIndex.load(path, dim=2, n_items=5)
    query = numpy.array([[1, 0]], dtype=numpy.float32)
    assert loaded.query(query, 4)[0].tolist() == index.query(query, 4)[0].tolist()
    assert loaded.n_vectors == 3 and loaded.vectors.shape == (3, 2)
    rows_path.write_bytes(rows_path.read_bytes()[:40])
    with pytest.raises(ArtifactError) as err:
        AnnoyNameIndex.load(path, dim=2, n_items=5)
    assert str(rows_path) in str(err.value)
    rows_path.unlink()
    with pytest.raises(ArtifactError) as err:
        AnnoyNameIndex.load(path, dim=2, n_items=5)
    assert str(rows_path) in str(err.value) and "not found" in str(err.value)
    AnnoyNameIndex.build(VECTORS, n_trees=2, n_jobs=1).save(path)  # one vector per name: no map, none left behind
    index.save(path)
    AnnoyNameIndex.build(VECTORS, n_trees=2, n_jobs=1).save(path)
    assert not rows_path.exists() and AnnoyNameIndex.load(path, dim=8, n_items=30).n_vectors == 30


def test_metadata_saying_fewer_vectors_than_names_without_a_map_is_refused(tmp_path):
    path = tmp_path / "names.ann"
    AnnoyNameIndex.build(VECTORS, n_trees=2, n_jobs=1).save(path)
    meta_path = tmp_path / "names.ann.json"
    meta = json.loads(meta_path.read_text())
    meta.pop("n_vectors"), meta.pop("shared_vectors")  # an index saved before names could share vectors
    meta_path.write_text(json.dumps(meta))
    assert AnnoyNameIndex.load(path, dim=8, n_items=30).n_vectors == 30
    meta.update(n_items=40, n_vectors=30)
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(ArtifactError) as err:
        AnnoyNameIndex.load(path, dim=8, n_items=40)
    assert str(meta_path) in str(err.value) and "without a map" in str(err.value)


def _mapped_file_of(address: int) -> int:
    """RETURNS (int): the inode of the file mapped at `address` in this process (0: anonymous or not mapped)."""
    for line in Path("/proc/self/maps").read_text().splitlines():
        fields = line.split(maxsplit=5)
        start, end = (int(a, 16) for a in fields[0].split("-"))
        if start <= address < end:
            return int(fields[4])
    return 0


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux /proc/self/maps")
@pytest.mark.parametrize("again_to_source", [False, True])
def test_saving_a_loaded_index_keeps_its_vector_view_mapped(tmp_path, again_to_source):
    """Regression (issue 51): Annoy's save() unmapped the loaded file under the vector view (segfault later)."""
    path = tmp_path / "names.ann"
    vectors = unit_rows(5000, 32)
    AnnoyNameIndex.build(vectors, n_trees=4, n_jobs=1).save(path)
    inode = path.stat().st_ino
    loaded = AnnoyNameIndex.load(path, dim=32, n_items=len(vectors))
    address = loaded.vectors.__array_interface__["data"][0]
    assert _mapped_file_of(address) == inode
    target = path if again_to_source else tmp_path / "copy" / "names.ann"
    target.parent.mkdir(exist_ok=True)
    loaded.save(target)
    assert _mapped_file_of(address) == inode  # the view still points into the file it was made from
    numpy.testing.assert_array_equal(loaded.item_vectors(numpy.arange(len(vectors))), vectors)
    ids, _ = loaded.query(vectors[:3], 1)
    assert ids[:, 0].tolist() == [0, 1, 2]
    copy = AnnoyNameIndex.load(target, dim=32, n_items=len(vectors))
    numpy.testing.assert_array_equal(copy.vectors, vectors)
    assert target.read_bytes() == (tmp_path / "names.ann").read_bytes() or again_to_source


def test_saving_a_built_index_twice_and_querying_between(tmp_path):
    index = AnnoyNameIndex.build(VECTORS, n_trees=4, n_jobs=1)
    index.save(tmp_path / "a.ann")
    index.save(tmp_path / "b.ann")
    assert (tmp_path / "a.ann").read_bytes() == (tmp_path / "b.ann").read_bytes()
    numpy.testing.assert_array_equal(index.item_vectors(numpy.array([4, 1])), VECTORS[[4, 1]])
    assert not list(tmp_path.glob("*.part"))
