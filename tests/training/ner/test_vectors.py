"""training.ner.vectors: floret vectors on unlabelled text plus the training captions, loaded as spaCy vectors."""
import gzip
import json
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.tokens import DocBin

from training.ner.vectors import caption_lines, floret_vectors, optional_path, text_lines, write_corpus

SENTENCES = [
    "PKC delta phosphorylates Trp53 in mouse fibroblasts .",
    "IL-2 receptor alpha binds IL-2 on T cells .",
    "The kinase PKC alpha is activated by phorbol esters .",
] * 20


def write_train(path: Path) -> Path:
    nlp = spacy.blank("en")
    bin_ = DocBin(docs=[nlp("Trp53  and PKCδ in HeLa cells."), nlp("IL-2Rα staining")])
    bin_.to_disk(path)
    return path


def test_text_lines_skip_blank_lines_and_squeeze_spaces(tmp_path: Path) -> None:
    path = tmp_path / "text.txt.gz"
    with gzip.open(path, "wt", encoding="utf8") as handle:
        handle.write("a  b\n\n  \nc d \n")
    assert list(text_lines(path)) == ["a b", "c d"]


def test_caption_lines_are_the_tokens_joined_by_single_spaces(tmp_path: Path) -> None:
    train = write_train(tmp_path / "train.spacy")
    assert list(caption_lines(train)) == ["Trp53 and PKCδ in HeLa cells .", "IL-2Rα staining"]


def test_write_corpus_counts_lines_and_tokens() -> None:
    import io

    out = io.StringIO()
    counts = write_corpus({"a": ["x y", "z"], "b": []}, out)
    assert counts == {"a": {"lines": 2, "tokens": 3}, "b": {"lines": 0, "tokens": 0}}
    assert out.getvalue() == "x y\nz\n"


def test_optional_path() -> None:
    assert optional_path("") is None and optional_path("null") is None
    assert optional_path("a/b.txt") == Path("a/b.txt")


@pytest.mark.slow
def test_floret_vectors_give_unseen_tokens_a_vector(tmp_path: Path) -> None:
    pytest.importorskip("floret")
    text = tmp_path / "text.txt"
    text.write_text("\n".join(SENTENCES) + "\n", encoding="utf8")
    train = write_train(tmp_path / "train.spacy")
    stats = floret_vectors(text, train, tmp_path / "out", dim=8, epochs=2, min_count=1, bucket=200)
    assert stats["sources"] == {"unlabelled_text": {"lines": 60, "tokens": 540},
                                "training_captions": {"lines": 2, "tokens": 9}}
    assert json.loads((tmp_path / "out" / "stats.json").read_text(encoding="utf8")) == stats
    nlp = spacy.load(tmp_path / "out" / "nlp")
    assert nlp.vocab.vectors.mode == "floret" and nlp.vocab.vectors.shape == (200, 8)
    for word in ("PKCδ", "Trp53", "IL-2Rα", "never-seen-word"):
        assert nlp.vocab.has_vector(word) and numpy.abs(nlp.vocab.get_vector(word)).sum() > 0


@pytest.mark.slow
def test_a_missing_text_is_recorded_and_the_captions_are_used(tmp_path: Path) -> None:
    pytest.importorskip("floret")
    train = write_train(tmp_path / "train.spacy")
    stats = floret_vectors(tmp_path / "absent.txt.gz", train, tmp_path / "out", dim=4, epochs=1, min_count=1,
                           bucket=50)
    assert stats["missing_text"] == [str(tmp_path / "absent.txt.gz")]
    assert list(stats["sources"]) == ["training_captions"]  # type: ignore[call-overload]
