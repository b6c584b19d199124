import json
from pathlib import Path

import pytest

from spacy_nseen.corpus.errors import CorpusError
from spacy_nseen.corpus.shards import ShardStore, write_atomic
from spacy_nseen.corpus.worker import ShardResult

SETTINGS = {"input": {"path": "/c.jsonl"}, "input_format": "jsonl", "output_format": "jsonl", "shard_size": 10, "pipeline": "p"}


def result(index: int) -> ShardResult:
    return ShardResult(index, f'{{"id": "{index}"}}\n', {"texts": 1, "entities": 0, "linked": {}, "unlinked": 0,
                                                        "bad_records": [{"position": "c.jsonl:3", "problem": "missing text"}]})


def test_write_and_resume(tmp_path: Path):
    store = ShardStore(tmp_path / "out", SETTINGS)
    assert not store.is_done(0)
    store.write(result(0))
    assert store.is_done(0) and store.shard_path(0).name == "shard-000000.jsonl"
    again = ShardStore(tmp_path / "out", dict(SETTINGS))
    assert again.is_done(0) and not again.is_done(1)
    assert again.stats(0)["texts"] == 1
    assert list(again.iter_bad_records(1)) == [{"shard": 0, "position": "c.jsonl:3", "problem": "missing text"}]


def test_leftover_part_files_are_removed(tmp_path: Path):
    out = tmp_path / "out"
    ShardStore(out, SETTINGS)
    (out / "shard-000001.jsonl.part").write_text("half a shard", encoding="utf-8")
    store = ShardStore(out, SETTINGS)
    assert not list(out.glob("*.part")) and not store.is_done(1)


def test_other_settings_are_refused_or_overwritten(tmp_path: Path):
    out = tmp_path / "out"
    ShardStore(out, SETTINGS).write(result(0))
    with pytest.raises(CorpusError, match="other settings.*shard_size.*--overwrite"):
        ShardStore(out, {**SETTINGS, "shard_size": 20})
    store = ShardStore(out, {**SETTINGS, "shard_size": 20}, overwrite=True)
    assert not store.is_done(0)
    assert json.loads((out / "manifest.json").read_text())["shard_size"] == 20


def test_a_shard_without_stats_is_a_clear_error(tmp_path: Path):
    store = ShardStore(tmp_path / "out", SETTINGS)
    store.write(result(0))
    store.stats_path(0).unlink()
    with pytest.raises(CorpusError, match="missing beside its shard.*Delete shard-000000.jsonl"):
        store.is_done(0)


def test_corrupt_manifest_and_output_that_is_a_file(tmp_path: Path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "manifest.json").write_text("{trunc", encoding="utf-8")
    with pytest.raises(CorpusError, match="unreadable manifest"):
        ShardStore(tmp_path / "out", SETTINGS)
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(CorpusError, match="not a directory"):
        ShardStore(tmp_path / "file", SETTINGS)


def test_write_atomic_leaves_no_part(tmp_path: Path):
    write_atomic(tmp_path / "a.txt", "é")
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "é" and not list(tmp_path.glob("*.part"))
