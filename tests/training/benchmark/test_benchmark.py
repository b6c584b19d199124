"""The benchmark's functions on tiny fixtures (no timing assertions)."""
import json
from pathlib import Path

import pytest

from spacy_nseen.encoder.layer import set_char_vocab
from spacy_nseen.encoder.vocab import CharVocab
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.reference.reference_set import ReferenceSet
from training.benchmark import benchmark, benchmark_pipeline
from training.benchmark.benchmark_report import check_targets, option_losses, write_markdown
from training.common.bioid import read_mentions, read_secondary_map

FIX = Path(__file__).parents[2] / "fixtures" / "eval"


@pytest.fixture(scope="module")
def linker_dirs(tmp_path_factory, new_toy_encoder):
    root = tmp_path_factory.mktemp("bench_linkers")
    encoder = new_toy_encoder()
    references = {kb: ReferenceSet.from_tsv(FIX / f"reference_{kb}.tsv") for kb in ("uniprot", "chebi")}
    set_char_vocab(encoder, CharVocab.from_texts([n for r in references.values() for n in r.names], 160))
    for kb, reference in references.items():
        # search_k -1 (Annoy's n_trees × n): the option effects below compare it with search_k=10
        KnowledgeBaseLinker.build(kb, encoder, reference, n_trees=2, search_k=-1).to_disk(root / kb)
    return {kb: root / kb for kb in references}


@pytest.fixture
def linkers(linker_dirs):
    return {kb: KnowledgeBaseLinker.from_disk(path) for kb, path in linker_dirs.items()}


@pytest.fixture(scope="module")
def mentions():
    return read_mentions(FIX / "mentions.tsv")


def test_stream_routes_mentions_by_type_in_document_order(mentions):
    stream = benchmark.mention_stream(mentions, ["uniprot", "chebi"])
    assert stream[0] == {"uniprot": ["AK1", "AK2", "Flag", "Mk1", "AK1"], "chebi": ["ATP"]}
    assert benchmark.distinct_mentions(stream, "uniprot")[:3] == ["AK1", "AK2", "Flag"]
    assert all("chebi" not in doc for doc in benchmark.mention_stream(mentions, ["uniprot"]))


def test_linking_throughput_has_every_figure(linkers, mentions):
    stream = benchmark.mention_stream(mentions, list(linkers))
    result = benchmark.linking_throughput(linkers, stream)
    assert set(result["uncached"]) == {"uniprot", "chebi", "all"}
    assert result["stream"]["mentions"] == sum(len(t) for doc in stream for t in doc.values())
    assert result["stream"]["mentions_per_s"] > 0 and result["uncached"]["all"]["dictionary_mentions_per_s"] > 0


def test_brute_force_index_is_exact(linkers):
    import numpy

    linker = linkers["uniprot"]
    vectors = linker.encode(["AK1", "beta"])
    ids, sims = benchmark.BruteForceIndex(linker.index, chunk=2).query(vectors, 3)
    all_sims = vectors @ linker.index.item_vectors(numpy.arange(linker.index.n_items)).T
    for row in range(2):
        assert list(ids[row]) == list(numpy.argsort(-all_sims[row], kind="stable")[:3])
        numpy.testing.assert_allclose(sims[row], numpy.sort(all_sims[row])[::-1][:3], rtol=1e-5)


def test_option_effects_recall_and_encoder(linkers, mentions, tmp_path):
    secondary = read_secondary_map(FIX / "chebi_secondary.tsv")
    for kb, linker in linkers.items():
        queries = benchmark.query_set(linker, mentions, secondary if kb == "chebi" else {})
        assert queries["strings"]
        before = (linker.settings, linker.index.search_k)
        options = benchmark.option_effects(linker, queries, secondary, search_ks=(-1, 10), sparse_max_dfs=(1.0, 0.0))
        assert (linker.settings, linker.index.search_k) == before  # restored
        assert {"configured", "exact_search", "search_k=10", "sparse_max_df=0.0", "precision=int8"} <= set(options)
        assert all(0.0 <= v["hits@1"] <= v["hits@10"] <= 1.0 for v in options.values())
        assert set(option_losses(options)) == {"Annoy instead of exact search", "sparse_max_df", "exact_short_cut"}  # on by default
        recall = benchmark.annoy_recall(linker, queries["strings"], k=2, search_ks=(-1,), other_n_trees=(1,), workdir=tmp_path)
        assert 0.0 <= recall["search_k=-1"]["recall@10"] <= 1.0 and "n_trees=1, search_k=-1" in recall
        assert set(recall["n_trees=1"]) == {"build_seconds", "size_mb"}
        assert set(benchmark.encoder_throughput(linker, linker.reference_set.names)) == {"fp32", "bf16", "int8"}


def test_index_build(linker_dirs, tmp_path):
    result = benchmark.index_build(linker_dirs["chebi"], tmp_path)
    assert result["names"] == 3 and result["size_mb"] > 0
    assert KnowledgeBaseLinker.from_disk(tmp_path / "rebuilt_chebi").link(["ATP"], top_k=1)


def test_ruler_pipeline_links(linker_dirs, mentions):
    nlp = benchmark_pipeline.ruler_pipeline(mentions, linker_dirs)
    doc = nlp("AK1 and AK2 bind ATP")
    assert [(e.text, e.label_) for e in doc.ents] == [("AK1", "PROTEIN"), ("AK2", "PROTEIN"), ("ATP", "CHEMICAL")]
    assert all(e.kb_id_ for e in doc.ents)
    result = benchmark_pipeline.pipeline_throughput(nlp, ["AK1 and ATP", "AK2"], threads=1, n_process=1)
    assert result["with_linker"]["words"] == result["without_linker"]["words"] == 4


def test_targets_and_report(tmp_path):
    options = {"configured": {"hits@1": 0.80, "hits@10": 0.9, "mentions_per_s": 1.0, "precision": "bf16", "settings": {}},
               "exact_search": {"hits@1": 0.81, "hits@10": 0.9, "mentions_per_s": 1.0},
               "precision=fp32": {"hits@1": 0.80, "hits@10": 0.9, "mentions_per_s": 1.0}}
    results = {"command": "python -m training.benchmark.benchmark --x", "machine": {}, "linking": {
        "uncached": {"all": {"mentions": 10, "mentions_per_s": 1000.0, "dictionary_mentions_per_s": 1e5}},
        "stream": {"mentions": 50, "mentions_per_s": 25000.0, "dictionary_mentions_per_s": 1e5}},
        "index_build": {"chebi": {"names": 3, "n_trees": 2, "seconds": 61.0, "parts_seconds": {}, "size_mb": 1, "files_mb": {}}},
        "options": {"uniprot": options}}
    rows = {r["target"]: r for r in check_targets(results)}
    assert rows["linking, Bio-ID stream (mentions/s) >= 20000"]["met"]
    assert rows["linking, uncached distinct mentions (mentions/s) >= 2000"]["note"].startswith("missed by 1000 (50%)")
    assert not rows["index build per reference set (s) [chebi] <= 60"]["met"]
    assert not rows["Hits@1 lost to a default-on speed option [uniprot: Annoy instead of exact search] <= 0.005"]["met"]
    assert rows["Hits@1 lost to a default-on speed option [uniprot: precision] <= 0.005"]["met"]
    results["targets"] = check_targets(results)
    write_markdown(results, tmp_path / "b.md")
    text = (tmp_path / "b.md").read_text()
    assert "python -m training.benchmark.benchmark --x" in text and "missed by 1000 (50%)" in text


@pytest.mark.slow
def test_probe_reports_load_time_and_memory(linker_dirs, mentions, tmp_path):
    nlp = benchmark_pipeline.ruler_pipeline(mentions, linker_dirs)
    nlp.to_disk(tmp_path / "pipeline")
    (tmp_path / "texts.txt").write_text("AK1 and ATP\nAK2", encoding="utf8")
    result = benchmark_pipeline.probe(tmp_path / "pipeline", threads=1, texts_path=tmp_path / "texts.txt")
    assert result["entities"] == 3 and result["load_seconds"] > 0
    assert result["memory_after_run"]["VmHWM"] >= result["memory_after_load"]["VmRSS"] > 0
    json.dumps(result)


@pytest.mark.slow
def test_two_probes_side_by_side_share_the_pipelines_file_pages(linker_dirs, mentions, tmp_path):
    import gc

    import spacy

    benchmark_pipeline.ruler_pipeline(mentions, linker_dirs).to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    loaded("AK1 and ATP")
    assert benchmark_pipeline.pipeline_maps_left(tmp_path / "pipeline")  # its indexes are memory-mapped
    del loaded
    gc.collect()  # as load_and_memory does before its probes
    assert benchmark_pipeline.pipeline_maps_left(tmp_path / "pipeline") == {}
    (tmp_path / "texts.txt").write_text("AK1 and ATP\nAK2", encoding="utf8")
    pair = benchmark_pipeline.probe_pair(tmp_path / "pipeline", 1, tmp_path / "texts.txt")
    assert len(pair) == 2
    for reading in pair:
        memory = reading["memory_after_run"]
        assert memory["VmRSS"] > 0 and ("Pss" not in memory or memory["Pss"] <= memory["VmRSS"])


def test_linkers_take_several_values():
    argv = ["--linkers", "a", "b", "--output", "x.json", "--linkers", "c"]
    assert benchmark.expand_multi_value(argv, "--linkers") == [
        "--linkers", "a", "--linkers", "b", "--output", "x.json", "--linkers", "c"]


def test_index_build_times_the_real_build_path(linker_dirs, tmp_path):
    result = benchmark.index_build(linker_dirs["chebi"], tmp_path, precision="bf16", n_trees=3)
    assert result["n_trees"] == 3 and result["build_precision"] == "bf16"
    assert {"encode_and_fit", "annoy", "tfidf", "tokens", "exact_keys", "total"} <= set(result["build_parts_seconds"])
    assert "tokens.npz" in result["rebuilt_files_mb"]


def test_the_build_precision_counts_as_a_default_on_speed_option():
    results = {
        "index_build": {"chebi": {"names": 3, "n_trees": 2, "seconds": 1.0, "parts_seconds": {}, "size_mb": 1, "files_mb": {},
                                  "build_precision": "bf16", "rebuilt_hits": {"hits@1": 0.70, "dense_hits@1": 0.6}}},
        "index_build_fp32": {"chebi": {"seconds": 2.0, "build_precision": "fp32", "rebuilt_hits": {"hits@1": 0.71, "dense_hits@1": 0.62}}},
    }
    rows = {r["target"]: r for r in check_targets(results)}
    row = rows["Hits@1 lost to a default-on speed option [chebi: build_precision bf16 (names encoded)] <= 0.005"]
    assert row["value"] == 0.01 and not row["met"]


def test_headline_figures_come_from_the_pipeline_with_and_without_the_linker():
    results = {"pipeline": {"without_linker": {"docs_per_s": 231.5}, "with_linker": {"docs_per_s": 150.0}},
               "load_memory": {"peak_rss_mb": 1116.0, "peak_rss_mb_without_linker": 431.4}}
    assert benchmark.headline_figures(results) == {"ner_captions_per_s": 231.5, "ner_peak_rss_mb": 431.4,
                                                   "pipeline_peak_rss_mb": results["load_memory"]["peak_rss_mb"]}
    assert benchmark.headline_figures({"linking": {}}) == {}
