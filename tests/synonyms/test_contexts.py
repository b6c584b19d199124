import gzip
import json
from pathlib import Path

import pytest

from spacy_nseen.errors import ArtifactError
from spacy_nseen.synonyms.contexts import (
    ContextCollector,
    annotation_files,
    collect_contexts,
    merge,
    read_contexts,
    sentence_window,
    write_contexts,
)


def record(doc_id: str, text: str, mentions, article: str = "PMC1") -> dict:
    entities = []
    for mention, kb_id in mentions:
        start = text.index(mention)
        entities.append({"start": start, "end": start + len(mention), "text": mention, "label": "PROTEIN",
                         "kb_id": kb_id, "kb_score": 0.8 if kb_id else None,
                         "kb_candidates": [["UniProt:Q9GZQ8", "MAP1LC3B", 0.9]]})
    return {"id": doc_id, "text": text, "meta": {"pmc_id": article}, "entities": entities}


RECORDS = [
    record(f"c{i}", f"Panel {i}. Cells expressing GFP-LC3B were starved for {i} h. Scale bar 10 um.",
           [("LC3B", "UniProt:Q9GZQ8" if i % 3 else None)], article=f"PMC{i % 4}")
    for i in range(12)
]


def test_sentence_window_keeps_the_mention_sentence_and_offsets() -> None:
    text = "First sentence here. Cells with LC3B puncta. Last one."
    sentence, start, end = sentence_window(text, text.index("LC3B"), text.index("LC3B") + 4)
    assert sentence == "Cells with LC3B puncta."
    assert sentence[start:end] == "LC3B"


def test_sentence_window_cuts_long_sentences_around_the_mention() -> None:
    text = "word " * 200 + "LC3B " + "word " * 200
    start = text.index("LC3B")
    sentence, s, e = sentence_window(text, start, start + 4, max_chars=60)
    assert sentence[s:e] == "LC3B" and len(sentence) <= 60


def test_collector_counts_links_and_bounds_the_sample() -> None:
    collector = ContextCollector(max_contexts=5)
    for rec in RECORDS:
        collector.add_record(rec)
    stats = collector.finish()["LC3B"]
    assert stats.n_mentions == 12 and stats.n_documents == 4
    assert stats.unlinked == 4 and stats.links["UniProt:Q9GZQ8"][0] == 8
    assert len(stats.contexts) == 5 and stats.keys == sorted(stats.keys)
    assert all(c.text[c.start : c.end] == "LC3B" for c in stats.contexts)
    kb_id, share, mean = stats.best_link()
    assert kb_id == "UniProt:Q9GZQ8" and share == pytest.approx(8 / 12) and mean == pytest.approx(0.8)


def test_sample_does_not_depend_on_order_and_merge_equals_union() -> None:
    def collect(records):
        collector = ContextCollector(max_contexts=4)
        for rec in records:
            collector.add_record(rec)
        return collector.finish()

    whole = collect(RECORDS)["LC3B"]
    backwards = collect(RECORDS[::-1])["LC3B"]
    merged = merge(collect(RECORDS[:5]), collect(RECORDS[5:]), 4)["LC3B"]
    assert whole.contexts == backwards.contexts == merged.contexts
    assert merged.n_mentions == 12 and merged.articles == whole.articles
    assert merged.links["UniProt:Q9GZQ8"] == pytest.approx(whole.links["UniProt:Q9GZQ8"])


def test_contexts_file_round_trip_and_shard_directories(tmp_path: Path) -> None:
    shards = tmp_path / "annotated"
    shards.mkdir()
    (shards / "shard-000000.jsonl").write_text("\n".join(json.dumps(r) for r in RECORDS) + "\n", encoding="utf8")
    stats = collect_contexts([shards], max_contexts=3)
    assert write_contexts(tmp_path / "ctx.jsonl.gz", stats, {"corpus": "x"}) == 1
    back, header = read_contexts(tmp_path / "ctx.jsonl.gz")
    assert header["corpus"] == "x" and back["LC3B"].contexts == stats["LC3B"].contexts
    assert back["LC3B"].candidates == [("UniProt:Q9GZQ8", "MAP1LC3B", 0.9)]


def test_bad_inputs_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(ArtifactError, match="no shard"):
        annotation_files([tmp_path])
    bad = tmp_path / "shard-000000.jsonl"
    bad.write_text("{not json\n", encoding="utf8")
    with pytest.raises(ArtifactError, match="line 1"):
        collect_contexts([bad])
    other = tmp_path / "other.jsonl.gz"
    other.write_bytes(gzip.compress(b'{"format": "something else"}\n'))
    with pytest.raises(ArtifactError, match="not a mention contexts file"):
        read_contexts(other)
    with pytest.raises(ArtifactError, match="not found"):
        read_contexts(tmp_path / "missing.jsonl.gz")
