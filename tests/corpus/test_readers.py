from pathlib import Path

import pytest

from spacy_nseen.corpus.errors import CorpusError
from spacy_nseen.corpus.readers import count_items, detect_format, read_corpus


def test_detect_format(tmp_path: Path):
    for name, expected in [("a.jsonl", "jsonl"), ("a.jsonl.gz", "jsonl"), ("b.xml", "bioc-xml"), ("c.json.gz", "bioc-json"),
                           ("captions.tsv.gz", "tsv")]:
        (tmp_path / name).write_bytes(b"")
        assert detect_format(tmp_path / name) == expected
    assert detect_format(tmp_path) == "txt"
    (tmp_path / "x.csv").write_bytes(b"")
    with pytest.raises(CorpusError, match="--format"):
        detect_format(tmp_path / "x.csv")
    with pytest.raises(CorpusError, match="no such file"):
        detect_format(tmp_path / "missing.jsonl")


def test_explicit_format_and_unknown_format(tmp_path: Path):
    path = tmp_path / "corpus.txt.lines"
    path.write_text('{"id": "1", "text": "ATP"}\n', encoding="utf-8")
    assert [r.text for r in read_corpus(path, "jsonl")] == ["ATP"]
    with pytest.raises(CorpusError, match="unknown format 'csv'"):
        list(read_corpus(path, "csv"))


def test_count_items(tmp_path: Path):
    (tmp_path / "a.jsonl").write_bytes(b'{"id": 1, "text": "x"}\n\nnot json\n\xff\n')
    assert count_items(tmp_path / "a.jsonl") == 3  # bad lines count, blank ones do not
    (tmp_path / "c.tsv").write_text("id\ttext\n1\tx\n2\ty\n", encoding="utf-8")
    assert count_items(tmp_path / "c.tsv") == 2
    (tmp_path / "d.xml").write_text("<collection/>", encoding="utf-8")
    assert count_items(tmp_path / "d.xml") is None
