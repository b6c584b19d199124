"""The speed options and fast-loading files of the linker: same results as the plain code paths."""
import shutil
import zipfile
from typing import Dict, List, Tuple

import numpy
import pytest

from spacy_nseen.errors import ArtifactError
from spacy_nseen.linker.kb_linker import KIND_PRIORITY, Candidate, KnowledgeBaseLinker, LinkerSettings
from spacy_nseen.linker.storage import INDEX_FILE, LOOKUP_FILE
from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.retrieval.array_io import load_npz, save_npz
from spacy_nseen.retrieval.char_tfidf import CharNgramTfidf
from spacy_nseen.retrieval.name_index import AnnoyNameIndex

MENTIONS = ["FOX-P2", "PLCγ2", "ras", "IKKε", "p53", "Histone H3", "🧬", "mTOR", "foxp2", "IKK-epsilon"]


def test_load_npz_maps_stored_arrays(tmp_path):
    arrays = {"a": numpy.arange(10, dtype=numpy.int64), "b": numpy.asarray([[1.5, 2.0]], dtype=numpy.float32),
              "empty": numpy.zeros(0, dtype=numpy.int32), "text": numpy.asarray(["x", "yz"])}
    save_npz(tmp_path / "aligned.npz", arrays)
    numpy.savez(tmp_path / "plain.npz", **arrays)
    numpy.savez_compressed(tmp_path / "packed.npz", **arrays)
    for name in ("aligned.npz", "plain.npz", "packed.npz"):
        for mmap in (True, False):
            loaded = load_npz(tmp_path / name, mmap=mmap)
            assert set(loaded) == set(arrays)
            for key, value in arrays.items():
                numpy.testing.assert_array_equal(loaded[key], value)
                assert loaded[key].flags.aligned
    with numpy.load(tmp_path / "aligned.npz", allow_pickle=False) as archive:  # still a standard .npz
        assert sorted(archive.files) == sorted(arrays)
        numpy.testing.assert_array_equal(archive["b"], arrays["b"])
    aligned = load_npz(tmp_path / "aligned.npz")
    for key in ("a", "b", "text"):
        assert isinstance(aligned[key], numpy.memmap) and aligned[key].ctypes.data % 64 == 0
    data = (tmp_path / "plain.npz").read_bytes()
    (tmp_path / "cut.npz").write_bytes(data[: len(data) // 2])
    with pytest.raises((ValueError, zipfile.BadZipFile)):  # cut inside a member, or before the central directory
        load_npz(tmp_path / "cut.npz")


def test_reference_arrays_round_trip():
    reference = ReferenceSet.from_rows([("A:1", "Alpha β", "recommended"), ("A:1", "α", ""), ("B:2", "蛋白", "synonym")])
    loaded = ReferenceSet.from_arrays(reference.to_arrays())
    assert (loaded.kb_ids, loaded.names, loaded.kinds) == (reference.kb_ids, reference.names, reference.kinds)
    numpy.testing.assert_array_equal(loaded.name_entity, reference.name_entity)
    assert loaded.entity_index("B:2") == 1
    bad = reference.to_arrays()
    bad["kind_codes"] = bad["kind_codes"][:1]
    with pytest.raises(ValueError):
        ReferenceSet.from_arrays(bad)
    with pytest.raises(ValueError, match="line breaks"):
        ReferenceSet.from_rows([("A:1", "two\nlines", "")]).to_arrays()


def test_item_vectors_are_mapped_from_the_annoy_file(tmp_path):
    vectors = numpy.random.default_rng(0).normal(size=(50, 8)).astype(numpy.float32)
    vectors /= numpy.linalg.norm(vectors, axis=1, keepdims=True)
    built = AnnoyNameIndex.build(vectors, n_trees=3)
    built.save(tmp_path / "names.ann")
    loaded = AnnoyNameIndex.load(tmp_path / "names.ann", dim=8, n_items=50)
    assert isinstance(loaded.vectors, numpy.ndarray)
    items = numpy.asarray([3, 0, 49, 3])
    for index in (built, loaded):
        numpy.testing.assert_array_equal(index.item_vectors(items), numpy.stack([loaded.item_vector(int(i)) for i in items]))
    one = loaded.query(vectors[:20], 5)
    for a, b in zip(one, loaded.query(vectors[:20], 5, n_threads=3)):
        numpy.testing.assert_array_equal(a, b)


def test_rare_ngram_search():
    names = ["Histone H3", "Histone H4", "PLC-gamma-2", "Phospholipase C-gamma-2", "IKBKE", "x", "xylose"]
    tfidf = CharNgramTfidf().fit(names)
    exact_ids, exact_scores = tfidf.top_k(["histone h3", "zzz"], k=3)
    same_ids, same_scores = tfidf.top_k(["histone h3", "zzz"], k=3, max_df=1.0)
    numpy.testing.assert_array_equal(exact_ids, same_ids)
    ids, scores = tfidf.top_k(["histone h3", "PLCg2", "qqq"], k=3, max_df=2 / len(names))
    assert list(ids[0][:2]) == [0, 1] and ids[0][2] in (-1, 2, 3, 4, 5, 6)
    assert list(ids[2]) == [-1, -1, -1] and list(scores[2]) == [0, 0, 0]
    assert scores[0][0] <= exact_scores[0][0] + 1e-6  # the rare n-grams' part of the cosine
    assert numpy.all(numpy.diff(scores, axis=1) <= 1e-7)


def old_collapse(linker: KnowledgeBaseLinker, pool: List[int], scores, exact: Dict[int, int], top_k: int) -> List[Candidate]:
    """The linker's collapse as it was written before it was vectorised."""
    reference = linker.reference_set
    best: Dict[int, Tuple[Tuple[int, int, float], int]] = {}
    for name_row, score in zip(pool, scores):
        tier = exact.get(name_row, 0)
        kind_rank = -KIND_PRIORITY.get(reference.kinds[name_row], 4) if tier else 0
        key = (tier, kind_rank, float(score))
        entity = int(reference.name_entity[name_row])
        if entity not in best or key > best[entity][0]:
            best[entity] = (key, name_row)
    ranked = sorted(best.items(), key=lambda item: (item[1][0], -item[0]), reverse=True)[:top_k]
    return [Candidate(reference.kb_ids[e], reference.names[r], 1.0 if k[0] else round(min(1.0, k[2]), 6)) for e, (k, r) in ranked]


def test_collapse_is_the_same_as_before(toy_linker):
    rng = numpy.random.default_rng(0)
    n = len(toy_linker.reference_set)
    for _trial in range(200):
        pool = list(dict.fromkeys(rng.integers(0, n, size=rng.integers(1, 30)).tolist()))
        scores = rng.choice([0.25, 0.5, 0.75, 1.0, 1.5], size=len(pool)).astype(numpy.float32)  # many ties
        exact = {row: int(rng.integers(1, 3)) for row in pool if rng.random() < 0.2}
        for top_k in (1, 3, 10):
            collapsed = toy_linker.fusion("hybrid").collapse(pool, scores, exact, top_k)
            assert collapsed == old_collapse(toy_linker, pool, scores, exact, top_k)


def test_exact_short_cut_keeps_the_first_candidates(fresh_toy_linker):
    linker = fresh_toy_linker
    linker.settings = LinkerSettings(cache_size=0)
    full = linker.link(MENTIONS, top_k=5)
    linker.settings = LinkerSettings(cache_size=0, exact_short_cut=True)
    short = linker.link(MENTIONS, top_k=5)
    for mention, a, b in zip(MENTIONS, full, short):
        if linker.exact_names.lookup(mention):
            assert b and all(c.score == 1.0 for c in b)
            assert [c.kb_id for c in b] == [c.kb_id for c in a[: len(b)]], mention
        else:
            assert a == b


@pytest.mark.parametrize("max_df", [0.0, 0.2, 1.0])
def test_sparse_max_df_links_every_mention(fresh_toy_linker, max_df):
    fresh_toy_linker.settings = LinkerSettings(cache_size=0, sparse_max_df=max_df, exact_short_cut=False)
    for candidates in fresh_toy_linker.link(MENTIONS, top_k=3):
        assert len(candidates) == 3
    assert fresh_toy_linker.link(["foxp2"], top_k=1)[0][0].score == 1.0
    with pytest.raises(ValueError, match="sparse_max_df"):
        LinkerSettings(sparse_max_df=1.5)


def test_lookup_file_saved_checked_and_optional(linker_dirs, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(linker_dirs["uniprot"], copy)
    assert (copy / LOOKUP_FILE).exists()
    expected = KnowledgeBaseLinker.from_disk(copy).link(MENTIONS, top_k=5)
    (copy / LOOKUP_FILE).unlink()  # a directory written before the look-up file existed
    with pytest.warns(UserWarning, match=LOOKUP_FILE):
        assert KnowledgeBaseLinker.from_disk(copy).link(MENTIONS, top_k=5) == expected
    (copy / LOOKUP_FILE).write_bytes(b"not a zip file")
    with pytest.raises(ArtifactError, match="cannot be read") as err:
        KnowledgeBaseLinker.from_disk(copy)
    assert err.value.path == copy / LOOKUP_FILE
    arrays = load_npz(linker_dirs["uniprot"] / LOOKUP_FILE, mmap=False)
    numpy.savez(copy / LOOKUP_FILE, **dict(arrays, lookup_version=numpy.asarray([99])))
    with pytest.raises(ArtifactError, match="look-up format 99"):
        KnowledgeBaseLinker.from_disk(copy)
    numpy.savez(copy / LOOKUP_FILE, **dict(arrays, reference_names=arrays["reference_names"][:-3]))
    with pytest.raises(ArtifactError, match=LOOKUP_FILE):
        KnowledgeBaseLinker.from_disk(copy)
    assert (copy / INDEX_FILE).exists()

