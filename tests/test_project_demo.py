"""The project's smallest workflow: `spacy project run demo` in a temporary copy of the repository.

It runs the full run's commands with the demo's vars (training.workflow.run_workflow): small encoders and an NER on the
committed sample (assets/sample), the pipeline assembled, evaluated and packaged, the wheel installed into a fresh
virtualenv (scripts/check_wheel.sh).
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import srsly

REPO = Path(__file__).resolve().parents[1]
COPIED = ["project.yml", "configs", "training", "scripts", "spacy_nseen", "assets/sample", "setup.cfg",
          "pyproject.toml", "README.md", "LICENSE", "results/demo"]
RESULTS = "training_output/demo/results"
WHEEL = "packages/demo/en_nseen_bio_demo-0.1.0/dist/en_nseen_bio_demo-0.1.0-py3-none-any.whl"


def copy_project(dest: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for rel in COPIED:
        src = REPO / rel
        if src.is_dir():
            shutil.copytree(src, dest / rel, ignore=ignore)
        elif src.exists():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


@pytest.mark.slow
def test_demo_workflow_builds_a_wheel_that_links(tmp_path: Path) -> None:
    copy_project(tmp_path)
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "spacy", "project", "run", "demo", str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=3600,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert (tmp_path / WHEEL).is_file()
    # the demo's steps keep their state in its own lock file; the project's holds only the `demo` command itself
    assert (tmp_path / "training_output/demo/project.lock").is_file()
    assert set(srsly.read_yaml(tmp_path / "project.lock")) == {"demo"}
    assert "REPRODUCED" in proc.stdout  # the reproduction check ran (REPRODUCED or NOT REPRODUCED)

    check = json.loads((tmp_path / RESULTS / "wheel_check/result.json").read_text(encoding="utf8"))
    assert check["package"] == "en_nseen_bio_demo"
    assert check["linked"] >= 1
    assert check["entry_links_in_html"]
    assert any(r.startswith("spacy-nseen") for r in check["requirements"])

    times = json.loads((tmp_path / RESULTS / "step_times.json").read_text(encoding="utf8"))
    for step in ("train-chebi", "build-indexes:chebi", "train-ner", "evaluate-hgnc", "assemble", "evaluate:pipeline",
                 "package", "check-wheel"):
        assert times[step]["ok"], times[step]

    metrics = json.loads((tmp_path / RESULTS / "pipeline/metrics.json").read_text(encoding="utf8"))
    for view in ("end_to_end", "linking_only"):
        assert set(metrics[view]) == {"all", "uniprot", "chebi"}
    assert metrics["linking_only"]["all"]["tp"] > 0
    assert "PROTEIN" in metrics["ner_only"]["ents_per_type"]
