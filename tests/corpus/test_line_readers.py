import gzip
from pathlib import Path

import pytest

from spacy_nseen.corpus.errors import CorpusError
from spacy_nseen.corpus.line_readers import read_captions_tsv, read_jsonl, read_text_dir
from spacy_nseen.corpus.records import BadRecord, TextRecord


def test_jsonl_reports_every_bad_line_with_its_position(tmp_path: Path):
    path = tmp_path / "c.jsonl"
    path.write_bytes(
        b'{"id": "a", "text": "FOXP2 binds", "pmc": "PMC1"}\n'
        b'{"id": "b", "text": \n'              # invalid JSON
        b'\n'                                  # blank: skipped, not bad
        b'{"id": "c"}\n'                       # missing text
        b'{"id": "d", "text": "caf\xe9"}\n'    # Latin-1, not UTF-8
        b'[1, 2]\n'                            # not an object
        b'{"text": "no id", "id": null}\n'     # no id: its position
        b'{"id": 7, "text": 5}\n'              # text not a string
    )
    items = list(read_jsonl(path))
    assert items[0] == TextRecord("a", "FOXP2 binds", {"pmc": "PMC1"})
    bad = [(b.position, b.problem.split(" (")[0]) for b in items if isinstance(b, BadRecord)]
    assert bad == [("c.jsonl:2", "invalid JSON"), ("c.jsonl:4", "missing text"), ("c.jsonl:5", "not valid UTF-8"),
                   ("c.jsonl:6", "expected a JSON object, found list"), ("c.jsonl:8", "text is a int, not a string")]
    assert TextRecord("c.jsonl:7", "no id", {}, generated_id=True) in items
    assert len(items) == 7


def test_jsonl_gzip_and_truncated_gzip(tmp_path: Path):
    data = b"".join(b'{"id": "%d", "text": "t%d"}\n' % (i, i) for i in range(2000))
    whole = gzip.compress(data)
    (tmp_path / "ok.jsonl.gz").write_bytes(whole)
    assert len(list(read_jsonl(tmp_path / "ok.jsonl.gz"))) == 2000
    (tmp_path / "cut.jsonl.gz").write_bytes(whole[: len(whole) // 2])
    items = list(read_jsonl(tmp_path / "cut.jsonl.gz"))
    assert isinstance(items[-1], BadRecord) and "truncated" in items[-1].problem
    assert all(isinstance(i, TextRecord) for i in items[:-1]) and 0 < len(items) - 1 < 2000


def test_missing_file_is_a_clear_error(tmp_path: Path):
    with pytest.raises(CorpusError, match="file not found"):
        list(read_jsonl(tmp_path / "nope.jsonl"))


def test_captions_tsv(tmp_path: Path):
    path = tmp_path / "captions.tsv"
    path.write_bytes(
        "split\tpmc_id\tcaption_id\ttext\n"
        "train\tP1\tP1 Figure_1-A\t(A) PLCγ2 binds ATP.\n"
        "train\tP1\tP1 Figure_1-B\n"
        "train\tP1\tP1 Figure_1-C\t\n".encode() + b"train\tP1\tP1 Figure_1-D\tbad \xff byte\n"
    )
    items = list(read_captions_tsv(path))
    assert items[0] == TextRecord("P1 Figure_1-A", "(A) PLCγ2 binds ATP.", {"split": "train", "pmc_id": "P1"})
    assert items[1] == BadRecord("captions.tsv:3", "row has 3 fields, the header has 4")
    assert items[2] == TextRecord("P1 Figure_1-C", "", {"split": "train", "pmc_id": "P1"})  # empty text is a text
    assert isinstance(items[3], BadRecord) and items[3].position == "captions.tsv:5"


def test_captions_tsv_without_text_column(tmp_path: Path):
    path = tmp_path / "x.tsv"
    path.write_text("id\tbody\n1\tx\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="lacks a 'text' column"):
        list(read_captions_tsv(path))


def test_the_fixture_captions_read(tmp_path: Path):
    items = list(read_captions_tsv(Path(__file__).parents[1] / "fixtures" / "eval" / "captions.tsv"))
    assert [i.id for i in items] == ["P001 Figure_1-A", "P002 Figure_2-B"]
    assert all(isinstance(i, TextRecord) and i.text for i in items)


def test_text_directory(tmp_path: Path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "two.txt").write_text("HRAS and ATP", encoding="utf-8")
    (tmp_path / "one.txt").write_text("FOXP2", encoding="utf-8")
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe")
    (tmp_path / "notes.md").write_text("ignored", encoding="utf-8")
    items = list(read_text_dir(tmp_path))
    assert items == [TextRecord("b/two", "HRAS and ATP", {}), BadRecord("bad.txt", items[1].problem), TextRecord("one", "FOXP2", {})]
    assert "not valid UTF-8" in items[1].problem
    with pytest.raises(CorpusError, match="not a directory"):
        list(read_text_dir(tmp_path / "one.txt"))
