"""`collect-contexts` and `discover-synonyms` end to end on a toy linker (as a pipeline directory's nseen_linker)."""
import json
import shutil
from pathlib import Path

import pytest

from spacy_nseen.synonyms.contexts import read_contexts
from spacy_nseen.synonyms.review_file import read_review_file

TEXTS = [
    ("d1", "Oncogenic HRAS drives growth of the cells.", "HRAS"),
    ("d2", "Oncogenic HRAS1 drives growth of the cells.", "HRAS1"),
    ("d3", "Mutant HRAS1 was expressed in the cells.", "HRAS1"),
]


def write_annotations(directory: Path) -> None:
    directory.mkdir()
    lines = []
    for doc_id, text, mention in TEXTS:
        start = text.index(mention)
        entity = {"start": start, "end": start + len(mention), "text": mention, "label": "PROTEIN", "kb_id": None,
                  "kb_score": None, "kb_candidates": None}
        lines.append(json.dumps({"id": doc_id, "text": text, "meta": {}, "entities": [entity]}))
    (directory / "shard-000000.jsonl").write_text("\n".join(lines) + "\n", encoding="utf8")


@pytest.mark.slow
def test_collect_then_discover_writes_a_review_file(run_cli, tmp_path: Path, linker_dirs) -> None:
    write_annotations(tmp_path / "annotated")
    result = run_cli("collect-contexts", "annotated", "--out", "ctx.jsonl.gz", "--max-contexts", "2")
    assert "2 mention strings (3 occurrences)" in result.stdout
    stats, header = read_contexts(tmp_path / "ctx.jsonl.gz")
    assert header["max_contexts"] == 2 and stats["HRAS1"].n_mentions == 2
    pipeline = tmp_path / "pipeline"
    shutil.copytree(linker_dirs["uniprot"], pipeline / "nseen_linker" / "kb_uniprot")
    (pipeline / "config.cfg").write_text('[components.nseen_linker.kbs.uniprot]\nlabels = ["PROTEIN"]\n', encoding="utf8")
    for source in ("ctx.jsonl.gz", "annotated"):
        run_cli("discover-synonyms", source, "--pipeline", "pipeline", "--kb", "uniprot", "--out", "review.tsv")
        review = read_review_file(tmp_path / "review.tsv")
        assert [row.mention for row in review.rows] == ["HRAS1"]
        assert review.metadata["kb"] == "uniprot" and sorted(review.rows[0].documents) == ["d2", "d3"]


def test_bad_options_and_inputs_fail_clearly(run_cli, tmp_path: Path) -> None:
    result = run_cli("discover-synonyms", "x", "--pipeline", "nowhere", "--kb", "uniprot", "--out", "r.tsv", check=False)
    assert result.returncode == 1 and "nseen_linker" in result.stdout + result.stderr
    result = run_cli("collect-contexts", "missing_dir", "--out", "c.jsonl.gz", check=False)
    assert result.returncode == 1 and "missing_dir" in result.stdout + result.stderr
    result = run_cli("collect-contexts", "missing_dir", "--out", "c.jsonl.gz", "--max-contexts", "0", check=False)
    assert result.returncode == 2
