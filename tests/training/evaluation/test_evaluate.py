import json
import sys
import types
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from training.common.bioid import kb_queries, read_mentions
from training.evaluation.evaluate import (
    LinkerRanker,
    app,
    evaluate_rankers,
    hits_at_k,
    organisms_hits1,
    select_documents,
    split_in_kb,
)

FIX = Path(__file__).parents[2] / "fixtures" / "eval"
Candidate = namedtuple("Candidate", ["kb_id", "name", "score"])


def test_hits_at_k_hand_worked():
    ranked = [["A", "B"], ["B", "A", "C"], ["C", "C", "C", "D", "A"], []]
    gold = [frozenset({"A"})] * 3 + [frozenset({"Z"})]
    # distinct lists: [A,B], [B,A,C], [C,D,A], [] -> H@1 1/4, H@2 2/4, H@3 3/4
    assert hits_at_k(ranked, gold, ks=(1, 2, 3, 10)) == {
        "hits@1": 0.25, "hits@2": 0.5, "hits@3": 0.75, "hits@10": 0.75}
    assert hits_at_k([], [], ks=(1,)) == {"hits@1": 0.0}


def test_out_of_kb_and_unique_pairs():
    qs = kb_queries(read_mentions(FIX / "mentions.tsv"), "uniprot")
    entities = {"UniProt:P00001", "UniProt:P00002", "UniProt:P00003"}
    c = split_in_kb(qs, entities)["counts"]
    assert c == {"queries": 6, "in_kb": 5, "out_of_kb": 1, "unique_pairs": 5,
                 "unique_pairs_in_kb": 4, "unique_pairs_out_of_kb": 1, "unique_strings_in_kb": 4}


class FakeLinker:
    def __init__(self):
        self.reference_set = types.SimpleNamespace(
            names=["Alpha kinase", "AK1", "Alpha kinase 2", "AK2", "Beta protein", "BP"],
            kb_ids=["UniProt:P00001", "UniProt:P00002", "UniProt:P00003"],
            name_entity=np.array([0, 0, 1, 1, 2, 2], dtype=np.int32))
        self.modes = []

    def link(self, mentions, top_k=10, mode="hybrid"):
        self.modes.append(mode)
        # Always the same list, with a repeated entity to check collapsing.
        cands = [Candidate("UniProt:P00002", "AK2", 0.9), Candidate("UniProt:P00002", "x", 0.8),
                 Candidate("UniProt:P00001", "AK1", 0.7)]
        return [cands[:top_k] for _ in mentions]

    def encode(self, strings):
        rng = np.random.default_rng(len(strings))
        v = rng.normal(size=(len(strings), 8)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_linker_ranker_collapses():
    qs = kb_queries(read_mentions(FIX / "mentions.tsv"), "uniprot")
    entities = {"UniProt:P00001", "UniProt:P00002", "UniProt:P00003"}
    res = evaluate_rankers(qs, entities, [LinkerRanker(FakeLinker())])
    occ = res["systems"]["nseen"]["per_occurrence"]
    # in-KB occurrences: AK1, AK2, AK1, Beta protein, alpha kinase(P2) -> P2 first for all
    assert occ["hits@1"] == pytest.approx(2 / 5)
    assert occ["hits@3"] == pytest.approx(4 / 5)
    assert res["systems"]["nseen"]["per_unique_pair"]["hits@1"] == pytest.approx(2 / 4)


def test_cli_baselines(tmp_path):
    out = tmp_path / "out"
    args = ["--kb", "uniprot", "--reference", str(FIX / "reference_uniprot.tsv"),
            "--mentions", str(FIX / "mentions.tsv"), "--systems", "exact,tfidf",
            "--output", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    m = json.loads((out / "metrics.json").read_text())
    assert m["counts"]["in_kb"] == 5 and m["counts"]["out_of_kb"] == 1
    # exact: AK1, AK2, AK1, Beta protein hit; "alpha kinase" -> P00001 (gold P00002) miss
    assert m["systems"]["exact"]["per_occurrence"]["hits@1"] == pytest.approx(4 / 5)
    assert m["systems"]["exact"]["per_unique_pair"]["hits@1"] == pytest.approx(3 / 4)
    assert "training.evaluation.evaluate" in m["command"] and m["paper_table3"]["BioC1"]
    assert "Per unique" in (out / "metrics.md").read_text()
    assert (out / "hits_at_k.png").stat().st_size > 0


def test_cli_chebi_secondary_and_split(tmp_path):
    args = ["--kb", "chebi", "--reference", str(FIX / "reference_chebi.tsv"),
            "--mentions", str(FIX / "mentions.tsv"), "--chebi-secondary",
            str(FIX / "chebi_secondary.tsv"), "--systems", "exact", "--split", "train",
            "--output", str(tmp_path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    m = json.loads((tmp_path / "metrics.json").read_text())
    assert m["counts"]["in_kb"] == 1 and m["splits"] == ["train"]
    assert m["systems"]["exact"]["per_occurrence"]["hits@1"] == 1.0


def test_cli_with_fake_linker(tmp_path, monkeypatch):
    fake = FakeLinker()
    module = types.ModuleType("spacy_nseen.linker.kb_linker")
    module.KnowledgeBaseLinker = types.SimpleNamespace(from_disk=lambda path: fake)
    monkeypatch.setitem(sys.modules, "spacy_nseen.linker.kb_linker", module)
    monkeypatch.setattr("training.evaluation.embedding_figure.EXAMPLES", {"AK2": ["UniProt:P00002"]})
    args = ["--kb", "uniprot", "--reference", str(FIX / "reference_uniprot.tsv"),
            "--mentions", str(FIX / "mentions.tsv"), "--systems", "exact,nseen,nseen_dense",
            "--linker", str(tmp_path), "--output", str(tmp_path / "out")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    m = json.loads((tmp_path / "out" / "metrics.json").read_text())
    assert set(m["systems"]) == {"exact", "nseen", "nseen_dense"}
    assert "dense" in fake.modes
    assert m["table4"]["AK2"][0] == {"kb_id": "UniProt:P00002", "name": "AK2", "score": 0.9,
                                     "correct": True}
    assert (tmp_path / "out" / "embedding_fig4.png").exists()


def test_cli_errors(tmp_path):
    result = CliRunner().invoke(app, ["--kb", "uniprot", "--reference", str(tmp_path / "no.tsv"),
                                      "--mentions", str(FIX / "mentions.tsv"),
                                      "--output", str(tmp_path)])
    assert result.exit_code == 1 and "not found" in result.output
    result = CliRunner().invoke(app, ["--kb", "uniprot", "--reference",
                                      str(FIX / "reference_uniprot.tsv"), "--mentions",
                                      str(FIX / "mentions.tsv"), "--systems", "nseen",
                                      "--output", str(tmp_path)])
    assert result.exit_code == 1 and "--linker" in result.output


def test_select_documents_by_parity():
    mentions = read_mentions(FIX / "mentions.tsv")
    assert select_documents(mentions, "all") == mentions
    odd, even = select_documents(mentions, "odd"), select_documents(mentions, "even")
    assert {m.pmc_id for m in odd} == {"P001"} and {m.pmc_id for m in even} == {"P002"}
    assert len(odd) + len(even) == len(mentions)
    with pytest.raises(ValueError, match="documents"):
        select_documents(mentions, "half")


def test_cli_documents_half(tmp_path):
    args = ["--kb", "uniprot", "--reference", str(FIX / "reference_uniprot.tsv"),
            "--mentions", str(FIX / "mentions.tsv"), "--systems", "exact",
            "--documents", "even", "--output", str(tmp_path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    m = json.loads((tmp_path / "metrics.json").read_text())
    # P002: "Beta protein" (exact hit) and "alpha kinase" (miss)
    assert m["documents"] == "even" and m["counts"]["in_kb"] == 2
    assert m["systems"]["exact"]["per_occurrence"]["hits@1"] == pytest.approx(1 / 2)
    assert "even-numbered documents" in (tmp_path / "metrics.md").read_text()


def test_cli_abbreviations_search_the_long_form(tmp_path):
    captions = tmp_path / "captions.tsv"
    captions.write_text("split\tpmc_id\tcaption_id\ttext\n"
                        "train\tP002\tP002 Figure_1\tBeta protein (BPR) and alpha kinase\n", encoding="utf8")
    mentions = tmp_path / "mentions.tsv"
    rows = (FIX / "mentions.tsv").read_text(encoding="utf8").splitlines()
    rows.append("train\tP002\tP002 Figure_1\t99\t14\t17\tBPR\t1\tprotein\tUniprot:P00003\t9\t9")
    mentions.write_text("\n".join(rows) + "\n", encoding="utf8")
    base = ["--kb", "uniprot", "--reference", str(FIX / "reference_uniprot.tsv"),
            "--mentions", str(mentions), "--systems", "exact"]
    result = CliRunner().invoke(app, base + ["--output", str(tmp_path / "plain")])
    assert result.exit_code == 0, result.output
    plain = json.loads((tmp_path / "plain" / "metrics.json").read_text())
    result = CliRunner().invoke(app, base + ["--abbreviations", "--output", str(tmp_path / "abbr")])
    assert result.exit_code == 0, result.output
    abbr = json.loads((tmp_path / "abbr" / "metrics.json").read_text())
    # "BPR" is no name; searched as "Beta protein" (defined in P002's caption) it hits P00003
    assert abbr["counts"]["searched_as_long_form"] == 1 and abbr["abbreviations"].endswith("captions.tsv")
    occ_plain = plain["systems"]["exact"]["per_occurrence"]["hits@1"]
    occ_abbr = abbr["systems"]["exact"]["per_occurrence"]["hits@1"]
    assert occ_abbr == pytest.approx(occ_plain + 1 / plain["counts"]["in_kb"])
    assert "searched by their long form" in (tmp_path / "abbr" / "metrics.md").read_text()


def test_cli_abbreviation_lexicon_applies_to_its_half_of_the_documents(tmp_path):
    from spacy_nseen.text.abbreviation_lexicon import AbbreviationLexicon

    mentions = tmp_path / "mentions.tsv"
    rows = (FIX / "mentions.tsv").read_text(encoding="utf8").splitlines()
    rows.append("train\tP002\tP002 Figure_1\t99\t14\t17\tBPR\t1\tprotein\tUniprot:P00003\t9\t9")
    mentions.write_text("\n".join(rows) + "\n", encoding="utf8")
    AbbreviationLexicon({"BPR": ("Beta protein", 2, 2)}).to_disk(tmp_path / "lexicon.json")
    base = ["--kb", "uniprot", "--reference", str(FIX / "reference_uniprot.tsv"), "--mentions", str(mentions),
            "--systems", "exact"]
    counts = {}
    for half in ("even", "odd"):  # P002 is even
        result = CliRunner().invoke(app, base + ["--abbreviation-lexicon", f"{half}={tmp_path / 'lexicon.json'}",
                                                 "--output", str(tmp_path / half)])
        assert result.exit_code == 0, result.output
        m = json.loads((tmp_path / half / "metrics.json").read_text())
        counts[half] = m["counts"]["searched_as_long_form"]
        assert m["abbreviation_lexicons"] == [f"{half}={tmp_path / 'lexicon.json'}"]
    assert counts == {"even": 1, "odd": 0}
    for spec, problem in ((f"half={tmp_path / 'lexicon.json'}", "documents must be one of"),
                          (str(tmp_path / "missing.json"), "abbreviation lexicon not found")):
        result = CliRunner().invoke(app, base + ["--abbreviation-lexicon", spec, "--output", str(tmp_path / "x")])
        assert result.exit_code == 1 and problem in result.output


def test_organisms_hits1_weighs_the_listed_organisms_rows_by_their_queries():
    table = {"human": {"queries": 30, "hits@1": 0.9}, "mouse": {"queries": 10, "hits@1": 0.5},
             "human+mouse": {"queries": 2, "hits@1": 1.0}, "7227": {"queries": 50, "hits@1": 0.1}}
    assert organisms_hits1(table, ["human", "mouse"]) == pytest.approx((27 + 5 + 2) / 42)
    assert organisms_hits1(table, ["human"]) == pytest.approx(0.9)
    assert organisms_hits1(table, ["rat"]) is None
