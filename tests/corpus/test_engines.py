from pathlib import Path

import pytest
from corpus_support import read_shards

from spacy_nseen.corpus.annotate import annotate_corpus
from spacy_nseen.corpus.engines import ProcessPoolEngine


@pytest.mark.slow
@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_two_processes_give_the_single_process_output(tmp_path: Path, tiny_pipeline: str, write_jsonl, start_method):
    corpus = write_jsonl(tmp_path / "c.jsonl", 60)
    single = annotate_corpus(corpus, tmp_path / "one", tiny_pipeline, shard_size=7, progress=False)
    engine = ProcessPoolEngine(tiny_pipeline, 2, start_method=start_method)
    try:
        double = annotate_corpus(corpus, tmp_path / "two", tiny_pipeline, engine=engine, shard_size=7, progress=False)
        assert len(engine.worker_pids()) == 2
    finally:
        engine.close()
    assert read_shards(tmp_path / "two") == read_shards(tmp_path / "one")
    assert {k: double[k] for k in ("texts", "entities", "linked")} == {k: single[k] for k in ("texts", "entities", "linked")}


def test_process_pool_arguments(tiny_pipeline: str):
    with pytest.raises(ValueError, match="at least 1"):
        ProcessPoolEngine(tiny_pipeline, 0)
    with pytest.raises(ValueError, match="start_method 'thread'"):
        ProcessPoolEngine(tiny_pipeline, 2, start_method="thread")
