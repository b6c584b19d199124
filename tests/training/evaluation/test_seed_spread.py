import json
import sys
import types
from collections import namedtuple
from pathlib import Path

import pytest
from typer.testing import CliRunner

from training.evaluation.seed_spread import app, last_dev_score, parse_runs, summarise

FIX = Path(__file__).parents[2] / "fixtures" / "eval"
Candidate = namedtuple("Candidate", ["kb_id", "name", "score"])


class RankingLinker:
    """Always ranks `first` then the other entities (dense mode: the reverse order)."""

    def __init__(self, first: str):
        self.first = first

    def link(self, mentions, top_k=10, mode="hybrid"):
        order = [self.first] + [e for e in ("UniProt:P00001", "UniProt:P00002", "UniProt:P00003") if e != self.first]
        if mode == "dense":
            order = order[::-1]
        return [[Candidate(e, e, 1.0) for e in order[:top_k]] for _ in mentions]


def test_summarise_mean_std_spread():
    assert summarise([0.8, 0.9, 0.85]) == {"mean": 0.85, "std": 0.05, "spread": 0.1, "min": 0.8, "max": 0.9}
    assert summarise([0.5])["std"] == 0.0


def test_parse_runs_rejects_malformed_and_repeated_seeds():
    assert parse_runs(["0=a/b", " 1 = c "], "--run") == {"0": Path("a/b"), "1": Path("c")}
    with pytest.raises(Exception, match="SEED=PATH"):
        parse_runs(["a/b"], "--run")
    with pytest.raises(Exception, match="twice"):
        parse_runs(["0=a", "0=b"], "--run")


def test_last_dev_score_reads_the_last_round(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"round": 1, "dev_hits_at_1": 0.2}\n{"round": 2, "dev_hits_at_1": 0.25}\n')
    assert last_dev_score(log) == 0.25


def test_cli_scores_each_seed_and_writes_the_spread(tmp_path, monkeypatch):
    fakes = {"s0": RankingLinker("UniProt:P00001"), "s1": RankingLinker("UniProt:P00002")}
    module = types.ModuleType("spacy_nseen.linker.kb_linker")
    module.KnowledgeBaseLinker = types.SimpleNamespace(from_disk=lambda path: fakes[Path(path).name])
    monkeypatch.setitem(sys.modules, "spacy_nseen.linker.kb_linker", module)
    for name in fakes:
        (tmp_path / name).mkdir()
    (tmp_path / "log.jsonl").write_text('{"round": 1, "dev_hits_at_1": 0.3}\n')
    headline = tmp_path / "headline.json"
    args = ["--kb", "uniprot", "--reference", str(FIX / "reference_uniprot.tsv"), "--mentions", str(FIX / "mentions.tsv"),
            "--run", f"0={tmp_path / 's0'}", "--run", f"1={tmp_path / 's1'}", "--output", str(tmp_path / "out"),
            "--headline", str(headline)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "metrics.json").read_text())
    # in-KB occurrences: AK1 (P1), AK2 (P2), AK1 (P1), Beta protein (P3), alpha kinase (P2)
    assert report["runs"]["0"]["hybrid"]["per_occurrence"] == pytest.approx(2 / 5, abs=1e-4)
    assert report["runs"]["1"]["hybrid"]["per_occurrence"] == pytest.approx(2 / 5, abs=1e-4)
    assert report["runs"]["0"]["dense"]["per_occurrence"] == pytest.approx(1 / 5, abs=1e-4)
    assert report["runs"]["1"]["dense"]["per_occurrence"] == pytest.approx(1 / 5, abs=1e-4)
    assert report["runs"]["0"]["hybrid"]["per_unique_pair"] == pytest.approx(1 / 4, abs=1e-4)
    assert report["runs"]["1"]["hybrid"]["per_unique_pair"] == pytest.approx(2 / 4, abs=1e-4)
    assert report["summary"]["hybrid_per_unique_pair"]["spread"] == pytest.approx(0.25)
    assert report["runs"]["0"]["dev_hits_at_1"] == 0.3
    assert "| **spread** |" in (tmp_path / "out" / "metrics.md").read_text()
    entry = json.loads(headline.read_text())["uniprot_hybrid_hits1_seed_spread"]
    assert entry["value"] == 0.0 and "training.evaluation.seed_spread" in entry["command"]


def test_cli_needs_two_existing_runs(tmp_path):
    base = ["--kb", "uniprot", "--reference", str(FIX / "reference_uniprot.tsv"), "--mentions", str(FIX / "mentions.tsv"),
            "--output", str(tmp_path / "out")]
    result = CliRunner().invoke(app, base + ["--run", f"0={tmp_path}"])
    assert result.exit_code == 1 and "at least two" in result.output
    result = CliRunner().invoke(app, base + ["--run", f"0={tmp_path}", "--run", f"1={tmp_path / 'missing'}"])
    assert result.exit_code == 1 and "missing" in result.output and "seeds-uniprot" in result.output
