"""The NER data-size experiment: nested shares of whole training articles."""
import json
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Doc, DocBin
from typer.testing import CliRunner

from experiments.ner_data_size import app, article_of, nested_article_shares, share_name


def caption(nlp: spacy.language.Language, pmc_id: str, text: str = "LC3 in HeLa cells") -> Doc:
    doc = nlp(text)
    doc.ents = [doc.char_span(0, 3, label="PROTEIN")]
    doc.user_data["pmc_id"] = pmc_id
    return doc


def test_shares_are_nested_and_sized() -> None:
    articles = [f"PMC{i}" for i in range(20)]
    shares = nested_article_shares(articles + articles[:5], [0.25, 0.5, 1.0], seed=0)
    assert [len(shares[f]) for f in (0.25, 0.5, 1.0)] == [5, 10, 20]
    assert shares[0.25] < shares[0.5] < shares[1.0] == set(articles)


def test_shares_follow_the_seed() -> None:
    articles = [f"PMC{i}" for i in range(40)]
    assert nested_article_shares(articles, [0.5], seed=1) == nested_article_shares(articles, [0.5], seed=1)
    assert nested_article_shares(articles, [0.5], seed=1) != nested_article_shares(articles, [0.5], seed=2)


def test_a_share_keeps_at_least_one_article() -> None:
    assert len(nested_article_shares(["PMC1", "PMC2"], [0.1], seed=0)[0.1]) == 1


@pytest.mark.parametrize("fraction", [0.0, -0.5, 1.5])
def test_a_fraction_outside_the_unit_interval_is_refused(fraction: float) -> None:
    with pytest.raises(ValueError, match="fraction"):
        nested_article_shares(["PMC1"], [fraction], seed=0)


def test_no_articles_is_refused() -> None:
    with pytest.raises(ValueError, match="No training articles"):
        nested_article_shares([], [0.5], seed=0)


def test_a_doc_without_its_article_is_refused() -> None:
    with pytest.raises(ValueError, match="pmc_id"):
        article_of(spacy.blank("en")("text"))


def test_share_names() -> None:
    assert share_name(0.25) == "train_25"
    assert share_name(0.5) == "train_50"


def test_cli_writes_whole_articles(tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    docs = [caption(nlp, f"PMC{i // 3}") for i in range(12)]  # 4 articles of 3 captions
    DocBin(docs=docs, store_user_data=True).to_disk(tmp_path / "train.spacy")
    result = CliRunner().invoke(app, [str(tmp_path / "train.spacy"), str(tmp_path / "out"), "--fraction", "0.5"])
    assert result.exit_code == 0, result.output
    sizes = json.loads((tmp_path / "out" / "sizes.json").read_text(encoding="utf8"))
    assert sizes["train_50"] == {"articles": 2, "captions": 6, "entities": 6}
    assert sizes["train"] == {"articles": 4, "captions": 12, "entities": 12}
    kept = list(DocBin().from_disk(tmp_path / "out" / "train_50.spacy").get_docs(nlp.vocab))
    by_article = {}
    for doc in kept:
        by_article[doc.user_data["pmc_id"]] = by_article.get(doc.user_data["pmc_id"], 0) + 1
    assert sorted(by_article.values()) == [3, 3]
    assert all(doc.ents[0].label_ == "PROTEIN" for doc in kept)


def test_cli_names_a_missing_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, [str(tmp_path / "none.spacy"), str(tmp_path / "out"), "--fraction", "0.5"])
    assert result.exit_code != 0
    assert "none.spacy" in result.output and "ner-corpus" in result.output
