"""Every link on a sample of text, listed for a reader to judge (`training.evaluation.link_sample`)."""

import json

import pytest

from training.evaluation import link_sample
from training.evaluation.link_sample import COLUMNS, link_rows, matching_lines, summary


def test_each_routed_entity_is_a_row_linked_or_not(make_nlp, make_doc):
    nlp = make_nlp(threshold=0.0)
    doc = make_doc(nlp, ["HRAS", "binds", "zzqx", "in", "flies"], [(0, 1, "PROTEIN"), (2, 3, "PROTEIN")])
    rows = link_rows(nlp, [nlp.get_pipe("nseen_linker")(doc)])
    assert [r["mention"] for r in rows] == ["HRAS", "zzqx"] and all(set(r) == set(COLUMNS) for r in rows)
    hras = rows[0]
    assert hras["linked"] is True and hras["kb"] == "uniprot" and hras["kb_id"] == "UniProt:P01112"
    assert hras["matched_name"] and hras["context"] == "[[HRAS]] binds zzqx in flies" and hras["judged"] == ""
    assert summary(rows, 1)["entities"] == 2 and summary(rows, 1)["by_kb"]["uniprot"]["entities"] == 2


def test_lines_are_drawn_from_those_the_pattern_finds():
    lines = ["Atg8a in Drosophila", "LC3 in HeLa cells", "lgg-1 in C. elegans"]
    assert matching_lines(lines, r"Drosophila|C\. elegans") == [lines[0], lines[2]]
    assert matching_lines(lines, None) == lines
    with pytest.raises(ValueError, match="not a regular expression"):
        matching_lines(lines, "(")


def test_the_command_writes_the_table_and_counts(make_nlp, tmp_path, monkeypatch):
    nlp = make_nlp(threshold=0.0)
    ruler = nlp.add_pipe("entity_ruler", first=True)
    ruler.add_patterns([{"label": "PROTEIN", "pattern": "HRAS"}])
    monkeypatch.setattr(link_sample.spacy, "load", lambda _: nlp)
    (tmp_path / "text.txt").write_text("HRAS in flies\nnothing here\nHRAS again in mice\n", encoding="utf8")
    link_sample.main("pipeline", tmp_path / "text.txt", tmp_path / "out", "HRAS", 10, 7)
    table = (tmp_path / "out" / "links.tsv").read_text(encoding="utf8").splitlines()
    assert table[0].split("\t") == list(COLUMNS) and len(table) == 3
    metrics = json.loads((tmp_path / "out" / "metrics.json").read_text(encoding="utf8"))
    assert metrics["lines_matching"] == 2 and metrics["texts"] == 2 and metrics["linked"] == 2
