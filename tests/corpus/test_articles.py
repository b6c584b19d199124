"""Articles in a corpus: which records are one article, shards that keep them whole, docs that carry them."""
import json
from pathlib import Path

import pytest
import spacy

from spacy_nseen.corpus.annotate import annotate_corpus
from spacy_nseen.corpus.articles import (
    article_key_function,
    bioc_key,
    captions_tsv_key,
    jsonl_key,
    record_docs,
    shard_chunks,
)
from spacy_nseen.corpus.records import BadRecord, TextRecord
from spacy_nseen.corpus.shards import MANIFEST
from spacy_nseen.errors import NseenError

DEFINES, USES = "Cells treated with rapamycin (RPM) for 2 h.", "RPM blocks mTOR."


def test_each_format_names_the_article_and_figure_of_a_record():
    caption = TextRecord("d/1", "t", {"document": "PMC1", "infons": {"type": "fig_caption", "id": "F2"}})
    assert bioc_key(caption) == ("PMC1", "F2")
    assert bioc_key(TextRecord("d/0", "t", {"document": "PMC1", "infons": {"type": "title"}})) == ("PMC1", None)
    assert bioc_key(TextRecord("d/0", "t", {"document": "PMC1", "infons": {"figure": "1"}})) == ("PMC1", "1")
    assert jsonl_key(TextRecord("a", "t", {"article": 17, "figure": "Figure 1"})) == ("17", "Figure 1")
    assert jsonl_key(TextRecord("a", "t", {"figure": "Figure 1"})) is None  # no article: the text alone
    assert jsonl_key(TextRecord("a", "t", {"article": ["not", "a", "key"]})) is None
    assert captions_tsv_key(TextRecord("c", "t", {"pmc_id": "0140041", "figure": "Figure 1-A"})) == ("0140041", "Figure 1")
    assert article_key_function("txt") is None and article_key_function("jsonl", context=False) is None


def records(articles):
    return [TextRecord(f"{a}/{i}", f"text {a} {i}", {"article": a}) for a, n in articles for i in range(n)]


def test_shards_end_between_articles_and_keep_their_size_without_articles():
    items = records([("A", 3), ("B", 4), ("C", 1)])
    sizes = [[r.id for r in chunk] for chunk in shard_chunks(items, 2, jsonl_key)]
    assert sizes == [["A/0", "A/1", "A/2"], ["B/0", "B/1", "B/2", "B/3"], ["C/0"]]
    assert [len(chunk) for chunk in shard_chunks(items, 3)] == [3, 3, 2]
    bad = BadRecord("c.jsonl:3", "invalid JSON")
    with_bad = items[:1] + [bad] + items[1:]
    assert [len(chunk) for chunk in shard_chunks(with_bad, 1, jsonl_key)] == [4, 4, 1]  # inside an article it stays
    assert [len(chunk) for chunk in shard_chunks(with_bad, 1)] == [1] * 9


def test_docs_of_one_article_carry_it():
    nlp = spacy.blank("en")
    items = records([("A", 2), ("B", 1)])
    docs = record_docs(nlp, items, [jsonl_key(r) for r in items])
    assert docs[0]._.article["texts"] == ["text A 0", "text A 1"] and docs[1]._.article["index"] == 1
    assert docs[2]._.article is None and docs[1]._.article_texts == ["text A 0"]
    assert record_docs(nlp, items)[0]._.article is None


@pytest.fixture(scope="module")
def rpm_pipeline(tmp_path_factory, tiny_pipeline: str) -> str:
    """The tiny pipeline with `RPM` among the CHEMICAL patterns."""
    nlp = spacy.load(tiny_pipeline)
    nlp.get_pipe("entity_ruler").add_patterns([{"label": "CHEMICAL", "pattern": "RPM"}])
    path = tmp_path_factory.mktemp("rpm") / "pipeline"
    nlp.to_disk(path)
    return str(path)


def searched(output: Path):
    lines = [json.loads(line) for f in sorted(output.glob("shard-*.jsonl")) for line in f.read_text().splitlines()]
    return [(r["id"], e["text"], e["kb_searched"]) for r in lines for e in r["entities"] if e["text"] == "RPM"]


def write_corpora(tmp_path: Path):
    rows = [("c1", "A1", DEFINES), ("c2", "A1", USES), ("c3", "A2", USES)]
    jsonl = tmp_path / "c.jsonl"
    jsonl.write_text("".join(json.dumps({"id": i, "article": a, "text": t}) + "\n" for i, a, t in rows))
    tsv = tmp_path / "captions.tsv"
    tsv.write_text("caption_id\tpmc_id\tfigure\ttext\n" + "".join(f"{i}\t{a}\tFigure 1-A\t{t}\n" for i, a, t in rows))
    bioc = tmp_path / "c.json"
    passages = [{"offset": 0, "text": DEFINES, "infons": {}}, {"offset": 100, "text": USES, "infons": {}}]
    documents = [{"id": "A1", "passages": passages}, {"id": "A2", "passages": [{"offset": 0, "text": USES}]}]
    bioc.write_text(json.dumps({"documents": documents}))
    return {"jsonl": (jsonl, ["c1", "c2", "c3"]), "tsv": (tsv, ["c1", "c2", "c3"]), "bioc": (bioc, ["A1/0", "A1/1", "A2"])}


def test_annotate_gives_each_text_its_article_and_no_context_turns_it_off(tmp_path: Path, rpm_pipeline: str):
    for name, (corpus, ids) in write_corpora(tmp_path).items():
        annotate_corpus(corpus, tmp_path / name, rpm_pipeline, shard_size=1, progress=False)
        assert searched(tmp_path / name) == [(ids[0], "RPM", "rapamycin"), (ids[1], "RPM", "rapamycin"), (ids[2], "RPM", None)]
        assert len(list((tmp_path / name).glob("shard-*.jsonl"))) == 2  # the article of two texts in one shard
        annotate_corpus(corpus, tmp_path / f"{name}-off", rpm_pipeline, shard_size=1, progress=False, context=False)
        assert [s[2] for s in searched(tmp_path / f"{name}-off")] == ["rapamycin", None, None]
        assert json.loads((tmp_path / f"{name}-off" / MANIFEST).read_text())["context"] is False
    with pytest.raises(NseenError, match="context differ"):  # a resume with the other setting is refused
        annotate_corpus(tmp_path / "c.jsonl", tmp_path / "jsonl", rpm_pipeline, shard_size=1, progress=False,
                        context=False)
