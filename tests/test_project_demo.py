"""The project's smallest workflow: `spacy project run demo` in a temporary copy of the repository.

It runs the full run's commands with the demo's vars (training.workflow.run_workflow): small encoders and an NER on the
committed sample (assets/sample), the pipeline assembled, evaluated and packaged, the wheel installed into a fresh
virtualenv (scripts/check_wheel.sh).

When `NSEEN_DEMO_RUN` names a checkout where the README's main command (`bash scripts/demo.sh`) has just run, as
`.ci/run` does before the tests, the test checks that run's outputs instead of running the demo a second time.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest
import srsly

REPO = Path(__file__).resolve().parents[1]
COPIED = ["project.yml", "configs", "training", "scripts", "spacy_nseen", "assets/sample", "setup.cfg",
          "pyproject.toml", "README.md", "LICENSE", "results/demo"]
RESULTS = "training_output/demo/results"
WHEEL = "packages/demo/en_nseen_bio_demo-0.2.0/dist/en_nseen_bio_demo-0.2.0-py3-none-any.whl"


def copy_project(dest: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for rel in COPIED:
        src = REPO / rel
        if src.is_dir():
            shutil.copytree(src, dest / rel, ignore=ignore)
        elif src.exists():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def finished_demo_run() -> Optional[Path]:
    """RETURNS (Optional[Path]): the checkout named by NSEEN_DEMO_RUN when its demo run finished (wheel built)."""
    done = os.environ.get("NSEEN_DEMO_RUN")
    if done and (Path(done) / WHEEL).is_file() and (Path(done) / RESULTS / "step_times.json").is_file():
        return Path(done)
    return None


@pytest.mark.slow
def test_demo_workflow_builds_a_wheel_that_links(tmp_path: Path) -> None:
    done = finished_demo_run()
    if done is None:
        copy_project(tmp_path)
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(tmp_path)}
        proc = subprocess.run(
            [sys.executable, "-m", "spacy", "project", "run", "demo", str(tmp_path)],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=3600,
        )
        assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    else:  # the README's main command ran the demo in this checkout: check its outputs, rerun only the check
        tmp_path = done
        proc = subprocess.run(
            [sys.executable, "-m", "training.workflow.check_demo", str(REPO / "results/demo/expected.json"),
             str(done / RESULTS)], cwd=done, capture_output=True, text=True, timeout=600,
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
