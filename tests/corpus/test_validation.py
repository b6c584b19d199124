from pathlib import Path

import pytest

from spacy_nseen.corpus.errors import CorpusError
from spacy_nseen.corpus.validation import check_pipeline, check_settings


def test_a_mistyped_pipeline_names_the_option(tmp_path: Path):
    with pytest.raises(CorpusError, match="neither an installed pipeline package nor a directory"):
        check_pipeline("en_nseen_bio_demoo")
    with pytest.raises(CorpusError, match="no config.cfg"):
        check_pipeline(str(tmp_path))


def test_a_saved_pipeline_passes(tiny_pipeline: str):
    check_pipeline(tiny_pipeline)


def test_options_are_checked(tmp_path: Path):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"id": 1, "text": "x"}\n')
    assert check_settings(corpus, "auto", "jsonl", 10, 10) == "jsonl"
    with pytest.raises(ValueError, match="--format 'jsonlines'"):
        check_settings(corpus, "jsonlines", "jsonl", 10, 10)
    with pytest.raises(ValueError, match="--output-format"):
        check_settings(corpus, "auto", "csv", 10, 10)
    with pytest.raises(ValueError, match="--shard-size"):
        check_settings(corpus, "auto", "jsonl", 0, 10)
    with pytest.raises(CorpusError, match="no such file"):
        check_settings(tmp_path / "none.jsonl", "auto", "jsonl", 10, 10)
    with pytest.raises(CorpusError, match="is a file, but the format is 'txt'"):
        check_settings(corpus, "txt", "jsonl", 10, 10)
