import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacy_nseen.encoder.layer import bf16_lstm_supported, encode_names, encoder_input_keys
from spacy_nseen.errors import ArtifactError
from spacy_nseen.linker.kb_linker import Candidate, KnowledgeBaseLinker, LinkerSettings
from spacy_nseen.linker.storage import META_FILE, REFERENCE_FILE, TFIDF_FILE
from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.retrieval.char_tfidf import CharNgramTfidf
from spacy_nseen.retrieval.exact_names import ExactNameIndex
from spacy_nseen.retrieval.name_index import AnnoyNameIndex
from spacy_nseen.retrieval.shared_vectors import VectorRows
from spacy_nseen.retrieval.word_tfidf import NameTokenIndex

MENTIONS = ["FOX-P2", "PLCγ2", "ras", "IKKε", "p53", "Histone H3", "🧬", "mTOR"]


def check_ranked(candidates, top_k):
    ids = [c.kb_id for c in candidates]
    assert len(ids) == len(set(ids)), ids
    assert len(ids) <= top_k
    scores = [c.score for c in candidates]
    assert scores == sorted(scores, reverse=True), scores


@pytest.mark.parametrize("mode", ["hybrid", "dense"])
@pytest.mark.parametrize("top_k", [1, 3, 10])
def test_top_k_distinct_entities_best_first(toy_linker, mode, top_k):
    results = toy_linker.link(MENTIONS, top_k=top_k, mode=mode)
    assert len(results) == len(MENTIONS)
    for candidates in results:
        # an exact match in hybrid mode takes the exact_short_cut (on by default): only the matching entities
        assert len(candidates) == top_k or (mode == "hybrid" and all(c.score == 1.0 for c in candidates))
        check_ranked(candidates, top_k)
        for c in candidates:
            assert isinstance(c, Candidate)
            assert c.name in toy_linker.reference_set.names_of(c.kb_id)


def test_more_entities_asked_than_exist(toy_linker):
    [candidates] = toy_linker.link(["FOXP2"], top_k=100, mode="dense")
    assert sorted(c.kb_id for c in candidates) == sorted(toy_linker.reference_set.kb_ids)


def test_exact_match_ranks_first_with_score_one(toy_linker):
    for mention, kb_id, name in [
        ("foxp2", "UniProt:O15409", "FOXP2"),  # strict key (case folded)
        ("FOX-P2", "UniProt:O15409", "FOXP2"),  # loose key
        ("PLCγ2", "UniProt:P16885", "PLC-gamma-2"),  # loose key, Greek spelled out
        ("IKK\u2010epsilon", "UniProt:Q14164", "IKK-epsilon"),  # strict key, Unicode hyphen
    ]:
        [candidates] = toy_linker.link([mention], top_k=3)
        assert candidates[0] == Candidate(kb_id, name, 1.0), (mention, candidates)
        assert all(c.score < 1.0 for c in candidates[1:])


def test_dense_mode_has_no_exact_match_short_cut(toy_linker):
    [hybrid] = toy_linker.link(["FOX-P2"], top_k=3, mode="hybrid")
    [dense] = toy_linker.link(["FOX-P2"], top_k=3, mode="dense")
    assert hybrid[0].score == 1.0
    assert dense[0].score < 1.0
    # dense scores are the cosines of the embeddings
    vectors = toy_linker.encode(["FOX-P2", dense[0].name])
    assert dense[0].score == pytest.approx(float(vectors[0] @ vectors[1]), abs=1e-4)


def test_exact_matches_of_several_entities_prefer_the_better_kind(toy_encoder):
    reference = ReferenceSet.from_rows(
        [("A:1", "Alpha protein", "recommended"), ("A:1", "p70", "synonym"),
         ("B:2", "p70", "recommended"), ("C:3", "p70", "alternative")]
    )
    linker = KnowledgeBaseLinker.build("toy", toy_encoder, reference, n_trees=2)
    [candidates] = linker.link(["P70"], top_k=3)
    assert [c.kb_id for c in candidates] == ["B:2", "C:3", "A:1"]
    assert all(c.score == 1.0 and c.name == "p70" for c in candidates)


def test_a_greek_letter_matches_its_latin_letter_when_nothing_matches_as_written(toy_encoder):
    reference = ReferenceSet.from_rows(
        [("A:1", "MAP1LC3B", "gene_primary"), ("A:1", "Microtubule-associated protein 1 light chain 3 beta", "alternative"),
         ("B:2", "Annexin A3", "recommended"), ("B:2", "Lipocortin III", "alternative"),
         ("C:3", "GSK3β", "alternative"), ("D:4", "GSK3B", "gene_primary")]
    )
    linker = KnowledgeBaseLinker.build("toy", toy_encoder, reference, n_trees=2)
    [lc3b] = linker.link(["MAP1LC3β"], top_k=2)
    assert lc3b[0].kb_id == "A:1" and lc3b[0].score == 1.0 and lc3b[0].name == "MAP1LC3B"
    # a name matching as written keeps it from the Latin form's matches
    [gsk] = linker.link(["GSK3β"], top_k=2)
    assert gsk[0].kb_id == "C:3"
    exact = linker.fusion("hybrid").exact
    from spacy_nseen.linker.signals.base import Queries
    queries = Queries(["MAP1LC3β", "GSK3β", "ΔN"], ["MAP1LC3β", "GSK3β", "ΔN"], [None, None, None])
    exact.match(queries, lambda rows, context: rows)
    assert set(queries.exact[0].values()) == {1}  # the loose tier
    assert set(queries.exact[1].values()) == {2} and queries.exact[2] == {}


def test_exact_match_can_be_switched_off(toy_encoder, toy_reference):
    linker = KnowledgeBaseLinker.build(
        "uniprot", toy_encoder, toy_reference, n_trees=10, settings=LinkerSettings(exact_match=False)
    )
    [candidates] = linker.link(["FOX-P2"], top_k=2)
    assert candidates[0].kb_id == "UniProt:O15409" and candidates[0].score < 1.0


def test_hybrid_without_tfidf_equals_dense_plus_exact(toy_encoder, toy_reference):
    linker = KnowledgeBaseLinker.build("uniprot", toy_encoder, toy_reference, n_trees=10, with_tfidf=False)
    assert linker.tfidf is None
    assert linker.link(["zzz unknown"], top_k=3) == linker.link(["zzz unknown"], top_k=3, mode="dense")


@pytest.mark.parametrize("mode", ["hybrid", "dense"])
def test_empty_mentions_get_no_candidates(toy_linker, mode):
    assert toy_linker.link(["", "   ", "FOXP2"], top_k=2, mode=mode)[:2] == [[], []]
    assert toy_linker.link([], top_k=2, mode=mode) == []


def test_cache_returns_the_same_results_without_encoding(fresh_toy_linker, monkeypatch):
    linker = fresh_toy_linker
    first = linker.link(MENTIONS + ["FOX-P2"], top_k=3)
    assert first[0] == first[-1]

    def fail(strings):
        raise AssertionError(f"encoded {strings} again")

    monkeypatch.setattr(linker, "encode", fail)
    assert linker.link(MENTIONS, top_k=3) == first[:-1]
    first[0].clear()  # callers cannot change what the cache holds
    assert linker.link(MENTIONS[:1], top_k=3)[0]
    with pytest.raises(AssertionError, match="encoded"):
        linker.link(MENTIONS, top_k=4)  # another top_k is another cache entry
    linker.clear_cache()
    with pytest.raises(AssertionError, match="encoded"):
        linker.link(MENTIONS, top_k=3)


def test_cache_size_bounds_the_cache(fresh_toy_linker):
    linker = fresh_toy_linker
    linker.settings = LinkerSettings(cache_size=2)
    linker.link(["a", "b", "c"], top_k=1)
    assert list(linker._cache) == [("b", 1, "hybrid", None), ("c", 1, "hybrid", None)]  # (mention, top_k, mode, organism)
    linker.settings = LinkerSettings(cache_size=0)
    linker.clear_cache()
    linker.link(["a"], top_k=1)
    assert not linker._cache


def test_results_do_not_depend_on_the_batch(fresh_toy_linker, toy_linker):
    fresh_toy_linker.settings = LinkerSettings(cache_size=0)
    together = fresh_toy_linker.link(MENTIONS, top_k=3)
    alone = [fresh_toy_linker.link([m], top_k=3)[0] for m in MENTIONS]
    for a, b in zip(together, alone):
        assert [c.kb_id for c in a] == [c.kb_id for c in b]
        numpy.testing.assert_allclose([c.score for c in a], [c.score for c in b], atol=1e-5)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(max_size=40), max_size=4))
def test_any_unicode_links_without_error(toy_linker, mentions):
    for mode in ("hybrid", "dense"):
        results = toy_linker.link(mentions, top_k=3, mode=mode)
        assert len(results) == len(mentions)
        for mention, candidates in zip(mentions, results):
            assert (candidates == []) == (not mention.strip())
            check_ranked(candidates, 3)


def test_unusual_characters(toy_linker):
    mentions = ["🧬🧪", "αβγ", "蛋白质激酶", "A\x00B", "\x00", "e\u0301", "\U0010ffff", "x" * 500]
    for candidates in toy_linker.link(mentions, top_k=2, mode="hybrid"):
        assert len(candidates) == 2
        check_ranked(candidates, 2)


def test_settings_validation():
    with pytest.raises(ValueError, match="n_candidates"):
        LinkerSettings(n_candidates=0)
    with pytest.raises(ValueError, match="sparse_weight"):
        LinkerSettings(sparse_weight=1.5)
    with pytest.raises(ValueError, match="cache_size"):
        LinkerSettings(cache_size=-1)
    settings_ = LinkerSettings(n_candidates=7, sparse_weight=0.25)
    assert LinkerSettings.from_dict({**settings_.to_dict(), "unknown": 1}) == settings_


def test_misuse(toy_linker, toy_encoder, toy_reference):
    with pytest.raises(ValueError, match="mode"):
        toy_linker.link(["x"], mode="sparse")
    with pytest.raises(ValueError, match="top_k"):
        toy_linker.link(["x"], top_k=0)
    small = AnnoyNameIndex.build(toy_linker.encode(["a", "b"]), n_trees=1)
    with pytest.raises(ValueError, match="index holds 2 names"):
        KnowledgeBaseLinker("x", toy_encoder, toy_reference, small)


# linker_io -------------------------------------------------------------------------------------


def test_disk_round_trip(toy_linker, tmp_path):
    toy_linker.to_disk(tmp_path / "linker")
    loaded = KnowledgeBaseLinker.from_disk(tmp_path / "linker")
    assert loaded.name == "uniprot" and loaded.settings == toy_linker.settings
    assert loaded.tfidf is not None
    for mode in ("hybrid", "dense"):
        assert loaded.link(MENTIONS, top_k=5, mode=mode) == toy_linker.link(MENTIONS, top_k=5, mode=mode)
    custom = KnowledgeBaseLinker.from_disk(tmp_path / "linker", settings=LinkerSettings(sparse_weight=0.0))
    assert custom.settings.sparse_weight == 0.0


def test_disk_round_trip_without_tfidf(toy_encoder, toy_reference, tmp_path):
    linker = KnowledgeBaseLinker.build("uniprot", toy_encoder, toy_reference, n_trees=5, with_tfidf=False)
    linker.to_disk(tmp_path)
    assert not (tmp_path / TFIDF_FILE).exists()
    assert KnowledgeBaseLinker.from_disk(tmp_path).tfidf is None


@pytest.mark.filterwarnings("ignore:.*was written with another reference.tsv.gz")  # the tampered copy: warned, then read from the TSV
def test_load_errors(linker_dirs, tmp_path):
    with pytest.raises(ArtifactError, match="linker directory not found"):
        KnowledgeBaseLinker.from_disk(tmp_path / "missing")
    with pytest.raises(ArtifactError, match="metadata file not found"):
        KnowledgeBaseLinker.from_disk(tmp_path)
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(linker_dirs["chebi"], copy)
    reference = ReferenceSet.from_tsv(copy / REFERENCE_FILE)
    ReferenceSet(reference.kb_ids, reference.names[:-1], reference.name_entity[:-1], reference.kinds[:-1]).to_tsv(
        copy / REFERENCE_FILE
    )
    with pytest.raises(ArtifactError) as err:  # a reference set that is not the one the index was built on
        KnowledgeBaseLinker.from_disk(copy)
    assert err.value.path.parent == copy and REFERENCE_FILE in str(err.value)
    (copy / META_FILE).write_text("{}")
    with pytest.raises(ArtifactError, match="not valid linker metadata"):
        KnowledgeBaseLinker.from_disk(copy)


def test_build_fits_every_part_and_times_it(toy_encoder, toy_reference):
    linker = KnowledgeBaseLinker.build("toy", toy_encoder, toy_reference, n_trees=5)
    assert {"encode_and_fit", "annoy", "tfidf", "tokens", "exact_keys", "total"} <= set(linker.build_seconds)
    assert all(seconds >= 0 for seconds in linker.build_seconds.values())
    seconds = linker.build_seconds
    assert seconds["encoded_by_main_thread"] + seconds["encoded_by_second_thread"] == linker.index.n_vectors  # distinct inputs
    # The parts fitted in the second thread are the same as fitted alone.
    names = toy_reference.names
    assert (linker.tfidf.matrix != CharNgramTfidf().fit(names).matrix).nnz == 0
    assert (linker.tokens.matrix != NameTokenIndex().fit(names).matrix).nnz == 0
    assert linker.exact_names.lookup("FOXP2") == ExactNameIndex.build(names).lookup("FOXP2")
    without = KnowledgeBaseLinker.build("toy", toy_encoder, toy_reference, n_trees=5, with_tfidf=False)
    assert without.tfidf is None and without.tokens is None and "tfidf" not in without.build_seconds


def name_vectors(linker: KnowledgeBaseLinker) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): the vector of every reference name (names the encoder reads alike share one)."""
    return linker.index.item_vectors(numpy.arange(linker.index.n_items))


def test_build_precision_applies_to_reference_names_only(toy_encoder, toy_reference):
    assert toy_encoder.attrs["precision"] == "fp32"
    linker = KnowledgeBaseLinker.build("toy", toy_encoder, toy_reference, n_trees=5, build_precision="bf16")
    assert toy_encoder.attrs["precision"] == "fp32"  # restored: mentions are encoded in fp32
    rows, first_rows = VectorRows.from_keys(encoder_input_keys(toy_encoder, toy_reference.names))
    fp32 = encode_names(toy_encoder, [toy_reference.names[row] for row in first_rows])[rows.row_vectors]
    numpy.testing.assert_array_equal(name_vectors(KnowledgeBaseLinker.build("toy", toy_encoder, toy_reference, n_trees=5)), fp32)
    if bf16_lstm_supported():
        assert numpy.abs(name_vectors(linker) - fp32).max() > 0  # the names were encoded in bf16
    else:  # a CPU without bf16 LSTM kernels encodes in fp32 (logged once)
        numpy.testing.assert_array_equal(name_vectors(linker), fp32)
    numpy.testing.assert_allclose(name_vectors(linker), fp32, atol=0.05)
    assert linker.link(["FOXP2"])[0][0].score == 1.0
    with pytest.raises(ValueError, match="build_precision"):
        KnowledgeBaseLinker.build("toy", toy_encoder, toy_reference, build_precision="fp8")


def test_build_encodes_in_chunks_shared_by_two_threads_with_the_same_result(toy_encoder, toy_reference, monkeypatch):
    from spacy_nseen.linker import build as index_build

    whole = name_vectors(KnowledgeBaseLinker.build("toy", toy_encoder, toy_reference, n_trees=5))
    monkeypatch.setattr(index_build, "CHUNK_SIZE", 3)  # many chunks: both threads encode some
    module = index_build.get_torch_module(toy_encoder)
    module.train()  # a freshly trained encoder may still be in training mode
    try:
        chunked = KnowledgeBaseLinker.build("toy", toy_encoder, toy_reference, n_trees=5)
        assert module.training  # restored
    finally:
        module.eval()
    numpy.testing.assert_allclose(name_vectors(chunked), whole, atol=1e-6)  # eval mode (no dropout) in every chunk


@pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(), reason="needs fork")
def test_lookups_fitted_in_a_child_process_are_the_same(toy_encoder, toy_reference):
    from spacy_nseen.linker.build import build_parts

    common = dict(n_trees=5, search_k=-1, seed=0, with_sparse=True, precision=None)
    in_thread = build_parts(toy_encoder, toy_reference.names, use_process=False, **common)
    in_child = build_parts(toy_encoder, toy_reference.names, use_process=True, **common)
    assert (in_child.tfidf.matrix != in_thread.tfidf.matrix).nnz == 0 and in_child.tfidf.vocab == in_thread.tfidf.vocab
    assert (in_child.tokens.matrix != in_thread.tokens.matrix).nnz == 0 and in_child.tokens.vocab == in_thread.tokens.vocab
    for mine, theirs in zip(in_child.exact_names.strict + in_child.exact_names.loose, in_thread.exact_names.strict + in_thread.exact_names.loose):
        numpy.testing.assert_array_equal(mine, theirs)
    numpy.testing.assert_array_equal(in_child.index.vectors, in_thread.index.vectors)
    assert {"tfidf", "tokens", "exact_keys", "write", "annoy", "total"} <= set(in_child.seconds)


def test_large_builds_use_a_child_process_except_in_a_daemonic_process(toy_encoder, toy_reference, monkeypatch):
    import multiprocessing

    from spacy_nseen.linker import build as index_build

    calls = []
    real = index_build._read_lookups
    monkeypatch.setattr(index_build, "_read_lookups", lambda *a: calls.append(a) or real(*a))
    monkeypatch.setattr(index_build, "PROCESS_MIN_NAMES", 1)
    common = dict(n_trees=2, search_k=-1, seed=0, with_sparse=True, precision=None)
    if "fork" in multiprocessing.get_all_start_methods():
        index_build.build_parts(toy_encoder, toy_reference.names, **common)
        assert len(calls) == 1  # fitted in a child, read back from its files
    monkeypatch.setattr(multiprocessing.current_process(), "daemon", True, raising=False)
    parts = index_build.build_parts(toy_encoder, toy_reference.names, **common)
    assert len(calls) <= 1 and "encoded_by_second_thread" in parts.seconds


ORTHOLOG_ROWS = [
    ("UniProt:P02340", "Cellular tumor antigen p53", "recommended"),
    ("UniProt:P02340", "Trp53", "gene_primary"),
    ("UniProt:P10361", "Cellular tumor antigen p53", "recommended"),
    ("UniProt:P10361", "Tp53", "gene_primary"),
    ("UniProt:P04637", "Cellular tumor antigen p53", "recommended"),
    ("UniProt:P04637", "TP53", "gene_primary"),
]
ORTHOLOG_TAXA = {"UniProt:P02340": 10090, "UniProt:P10361": 10116, "UniProt:P04637": 9606}


def test_orthologs_names_share_one_stored_vector_and_all_are_found(toy_encoder, tmp_path):
    reference = ReferenceSet.from_rows(ORTHOLOG_ROWS, ORTHOLOG_TAXA)
    linker = KnowledgeBaseLinker.build("uniprot", toy_encoder, reference, n_trees=3, seed=0)
    # the toy encoder folds case: "Tp53" and "TP53" are one input, the recommended name one more
    assert linker.index.n_items == 6 and linker.index.n_vectors == 3
    found = linker.link(["Cellular tumour antigen p53"], top_k=3, mode="dense")[0]
    assert {c.kb_id for c in found} == set(ORTHOLOG_TAXA) and len({c.score for c in found}) == 1
    linker.to_disk(tmp_path / "uniprot")
    assert (tmp_path / "uniprot" / "names.ann.rows.npz").exists()
    loaded = KnowledgeBaseLinker.from_disk(tmp_path / "uniprot")
    assert loaded.index.n_vectors == 3
    for mode in ("dense", "hybrid"):
        assert loaded.link(["Cellular tumour antigen p53", "tp-53"], top_k=3, mode=mode) == \
            linker.link(["Cellular tumour antigen p53", "tp-53"], top_k=3, mode=mode)
