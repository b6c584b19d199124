import json
from pathlib import Path

import pytest
from corpus_support import read_shards

from spacy_nseen.corpus.annotate import annotate_corpus
from spacy_nseen.corpus.bioc import read_bioc_xml
from spacy_nseen.corpus.engines import InProcessEngine
from spacy_nseen.corpus.errors import CorpusError


def test_annotate_jsonl_with_bad_records(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    corpus = write_jsonl(tmp_path / "c.jsonl", 25, extra=b'{"id": "x"}\n{oops\n')
    summary = annotate_corpus(corpus, tmp_path / "out", tiny_pipeline, shard_size=10, progress=False)
    assert (summary["texts"], summary["bad_records"], summary["shards"], summary["shards_resumed"]) == (25, 2, 3, 0)
    lines = [json.loads(line) for line in read_shards(tmp_path / "out")]
    assert [r["id"] for r in lines] == [f"c{i}" for i in range(25)]
    assert summary["entities"] == sum(len(r["entities"]) for r in lines) > 50
    linked = [e["kb_id"] for r in lines for e in r["entities"] if e["kb_id"]]
    assert summary["linked"] == {"CHEBI": sum(k.startswith("CHEBI:") for k in linked),
                                 "UniProt": sum(k.startswith("UniProt:") for k in linked)}
    bad = [json.loads(x) for x in (tmp_path / "out" / "bad_records.jsonl").read_text().splitlines()]
    assert [(b["shard"], b["position"]) for b in bad] == [(2, "c.jsonl:26"), (2, "c.jsonl:27")]
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["texts"] == 25


def test_resume_redoes_only_missing_shards_and_gives_the_same_output(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    corpus = write_jsonl(tmp_path / "c.jsonl", 30)
    annotate_corpus(corpus, tmp_path / "out", tiny_pipeline, shard_size=10, progress=False)
    before = read_shards(tmp_path / "out")
    (tmp_path / "out" / "shard-000001.jsonl").unlink()
    (tmp_path / "out" / "shard-000002.jsonl.part").write_text("{half", encoding="utf-8")
    summary = annotate_corpus(corpus, tmp_path / "out", tiny_pipeline, shard_size=10, progress=False)
    assert (summary["shards_resumed"], summary["texts_this_run"], summary["texts"]) == (2, 10, 30)
    assert read_shards(tmp_path / "out") == before


def test_resume_with_another_pipeline_is_refused(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    corpus = write_jsonl(tmp_path / "c.jsonl", 3)
    annotate_corpus(corpus, tmp_path / "out", tiny_pipeline, progress=False)
    with pytest.raises(CorpusError, match="pipeline"):
        annotate_corpus(corpus, tmp_path / "out", "en_core_web_sm", progress=False)


def test_bioc_output_reads_back(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    corpus = write_jsonl(tmp_path / "c.jsonl", 12)
    annotate_corpus(corpus, tmp_path / "out", tiny_pipeline, output_format="bioc-xml", shard_size=5, progress=False)
    annotate_corpus(corpus, tmp_path / "json", tiny_pipeline, progress=False)
    records = [r for f in sorted((tmp_path / "out").glob("shard-*.bioc.xml")) for r in read_bioc_xml(f)]
    expected = [json.loads(line) for line in read_shards(tmp_path / "json")]
    assert [(r.id, r.text) for r in records] == [(e["id"], e["text"]) for e in expected]
    for record, reference in zip(records, expected):
        got = [(a["locations"][0][0], a["text"], a["infons"].get("identifier")) for a in record.meta["annotations"]]
        assert got == [(e["start"], e["text"], e["kb_id"]) for e in reference["entities"]]


def test_empty_corpus(tmp_path: Path, tiny_pipeline: str):
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    summary = annotate_corpus(tmp_path / "empty.jsonl", tmp_path / "out", tiny_pipeline, progress=False)
    assert (summary["texts"], summary["shards"], summary["entities"]) == (0, 0, 0)
    assert (tmp_path / "out" / "bad_records.jsonl").read_text() == ""


def test_bad_arguments(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    corpus = write_jsonl(tmp_path / "c.jsonl", 1)
    with pytest.raises(ValueError, match="--output-format 'csv'"):
        annotate_corpus(corpus, tmp_path / "o", tiny_pipeline, output_format="csv")
    with pytest.raises(ValueError, match="--shard-size"):
        annotate_corpus(corpus, tmp_path / "o", tiny_pipeline, shard_size=0)
    assert not (tmp_path / "o").exists()  # checked before anything is written
    engine = InProcessEngine(tiny_pipeline, output_format="bioc-xml")
    with pytest.raises(ValueError, match="engine writes 'bioc-xml' but output_format is 'jsonl'"):
        annotate_corpus(corpus, tmp_path / "o", tiny_pipeline, engine=engine)
