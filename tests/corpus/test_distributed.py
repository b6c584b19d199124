"""A real local Dask cluster (2 worker processes) against the single-process run."""
import os
from pathlib import Path

import pytest
from corpus_support import read_shards

from spacy_nseen.corpus.annotate import annotate_corpus

pytest.importorskip("distributed", reason='needs the distributed extra: pip install "spacy-nseen[distributed]"')
from spacy_nseen.corpus.distributed import DaskEngine  # noqa: E402


@pytest.mark.slow
def test_local_cluster_matches_single_process_and_resumes(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    corpus = write_jsonl(tmp_path / "c.jsonl", 50, extra=b"{not json\n")
    single = annotate_corpus(corpus, tmp_path / "one", tiny_pipeline, shard_size=6, output_format="bioc-xml", progress=False)
    trim = os.environ.get("MALLOC_TRIM_THRESHOLD_")
    engine = DaskEngine(tiny_pipeline, n_workers=2, output_format="bioc-xml")
    try:
        # no MALLOC_TRIM_THRESHOLD_ from Dask's nannies: not in the workers, not leaked into this process
        assert os.environ.get("MALLOC_TRIM_THRESHOLD_") == trim
        assert set(engine.client.run(lambda: __import__("os").environ.get("MALLOC_TRIM_THRESHOLD_")).values()) == {trim}
        assert engine.n_workers == 2 and len(engine.worker_pids()) == 2
        profiling = engine.client.run(lambda: __import__("dask").config.get("distributed.worker.profile.enabled"))
        assert set(profiling.values()) == {False}  # the stack profiler is off in the local cluster's workers
        cluster = annotate_corpus(corpus, tmp_path / "two", tiny_pipeline, engine=engine, shard_size=6,
                                  output_format="bioc-xml", progress=False)
        assert read_shards(tmp_path / "two", "shard-*.bioc.xml") == read_shards(tmp_path / "one", "shard-*.bioc.xml")
        assert {k: cluster[k] for k in ("texts", "bad_records", "entities", "linked")} == {
            k: single[k] for k in ("texts", "bad_records", "entities", "linked")}
        for name in ("shard-000002.bioc.xml", "shard-000005.bioc.xml"):
            (tmp_path / "two" / name).unlink()
        resumed = annotate_corpus(corpus, tmp_path / "two", tiny_pipeline, engine=engine, shard_size=6,
                                  output_format="bioc-xml", progress=False)
    finally:
        engine.close()
    assert (resumed["shards_resumed"], resumed["shards"], resumed["texts_this_run"]) == (7, 9, 12)
    assert read_shards(tmp_path / "two", "shard-*.bioc.xml") == read_shards(tmp_path / "one", "shard-*.bioc.xml")
