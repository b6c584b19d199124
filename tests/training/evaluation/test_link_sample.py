"""Every link on a sample of text, listed for a reader to judge (`training.evaluation.link_sample`)."""

import json

import pytest

from training.evaluation import link_sample
from training.evaluation.link_sample import COLUMNS, link_rows, matching_lines, summary


@pytest.fixture()
def loaded_with_ruler(make_nlp, monkeypatch):
    """The toy linker behind an entity ruler for `HRAS`, returned by the command's `spacy.load`."""
    nlp = make_nlp(threshold=0.0)
    nlp.add_pipe("entity_ruler", first=True).add_patterns([{"label": "PROTEIN", "pattern": "HRAS"}])
    monkeypatch.setattr(link_sample.spacy, "load", lambda _: nlp)
    return nlp


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


def test_the_command_writes_the_table_and_counts(loaded_with_ruler, tmp_path):
    (tmp_path / "text.txt").write_text("HRAS in flies\nnothing here\nHRAS again in mice\n", encoding="utf8")
    link_sample.main("pipeline", tmp_path / "text.txt", tmp_path / "out", "HRAS", 10, 7, None)
    table = (tmp_path / "out" / "links.tsv").read_text(encoding="utf8").splitlines()
    assert table[0].split("\t") == list(COLUMNS) and len(table) == 3
    metrics = json.loads((tmp_path / "out" / "metrics.json").read_text(encoding="utf8"))
    assert metrics["lines_matching"] == 2 and metrics["texts"] == 2 and metrics["linked"] == 2


def test_versus_lists_the_links_an_assigner_setting_changes(loaded_with_ruler, tmp_path):
    (tmp_path / "text.txt").write_text("human HRAS and mouse HRAS\n", encoding="utf8")
    link_sample.main("pipeline", tmp_path / "text.txt", tmp_path / "out", None, 10, 7, "near_weight=0")
    metrics = json.loads((tmp_path / "out" / "metrics.json").read_text(encoding="utf8"))
    changed = (tmp_path / "out" / "changed.tsv").read_text(encoding="utf8").splitlines()
    assert metrics["versus"] == "near_weight=0" and metrics["changed"] == len(changed) - 1
    assert changed[0].split("\t")[-3:] == ["kb_id_versus", "linked_versus", "kb_score_versus"]


def test_rows_of_runs_that_found_other_entities_are_not_paired():
    from training.evaluation.link_sample import changed_rows

    row = {"text": 0, "mention": "HRAS", "kb_id": "a", "linked": True, "kb_score": 0.9}
    assert changed_rows([row], [{**row, "kb_id": "b"}])[0]["kb_id_versus"] == "b"
    assert changed_rows([row], [row]) == []
    with pytest.raises(ValueError, match="cannot be paired"):
        changed_rows([row], [{**row, "mention": "KRAS"}])
