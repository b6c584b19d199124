"""Saving a pipeline and going on using it; copies through disk, bytes and pickle give the same output (issue 51).

The packaged demo pipeline (`training_output/demo/pipeline`, assembled by `bash scripts/demo.sh`, which `.ci/run`
runs before the tests) goes through `round_trip_check.py` in a subprocess, so that a crash fails the test instead of
ending the test run. The toy pipeline of the reliability suite goes through the same checks on every test run.
"""
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict

import numpy
import pytest
from rel_support import make_pipeline
from thinc.api import Model

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker, LinkerSettings
from spacy_nseen.reference.reference_set import ReferenceSet

REPO = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).with_name("round_trip_check.py")
DEMO_PIPELINE = "training_output/demo/pipeline"


def demo_pipeline() -> Path:
    """RETURNS (Path): the demo pipeline of this checkout or of the one NSEEN_DEMO_RUN names (may not exist)."""
    return Path(os.environ.get("NSEEN_DEMO_RUN", REPO)) / DEMO_PIPELINE


def run_check(pipeline: Path, report: Path, n_process: int, *imports: str) -> Dict[str, object]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": os.pathsep.join([str(REPO), str(CHECK.parent)])}
    proc = subprocess.run([sys.executable, str(CHECK), str(pipeline), str(report), "--n-process", str(n_process),
                           *(f"--import={module}" for module in imports)],
                          capture_output=True, text=True, timeout=900, env=env, cwd=report.parent)
    assert proc.returncode in (0, 1), f"the check crashed (exit {proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return json.loads(report.read_text(encoding="utf8"))


@pytest.mark.slow
@pytest.mark.skipif(not demo_pipeline().is_dir(),
                    reason=f"no demo pipeline at {demo_pipeline()}: run `bash scripts/demo.sh` first (.ci/run does)")
def test_the_demo_pipeline_saved_kept_in_use_and_copied_gives_identical_output(tmp_path: Path) -> None:
    report = run_check(demo_pipeline(), tmp_path / "report.json", n_process=2)
    assert report["n_linked"] > 0  # the comparisons compare linked entities, not only empty docs
    assert report["ok"], {name: lines for name, lines in report["checks"].items() if lines}


def full_size_reference(reference: ReferenceSet, n_names: int = 60_000) -> ReferenceSet:
    """RETURNS (ReferenceSet): the toy names and `n_names` made-up gene-like ones (two per entity): an index file
    of megabytes, mapped where the kernel puts large mappings, as a real linker's is."""
    rng = numpy.random.default_rng(0)
    letters = numpy.array(list("ABCDEFGHIKLMNPRSTUVWXYZ"))
    rows = [(reference.kb_ids[reference.name_entity[i]], name, "gene_synonym") for i, name in enumerate(reference.names)]
    for i in range(n_names):
        stem = "".join(rng.choice(letters, size=int(rng.integers(3, 6))))
        rows.append((f"UniProt:X{i // 2:05d}", f"{stem}{int(rng.integers(1, 30))}", "gene_synonym"))
    return ReferenceSet.from_rows(rows)


@pytest.mark.slow
def test_a_full_size_pipeline_saved_kept_in_use_and_copied_gives_identical_output(
        tmp_path: Path, rel_encoder: Model, rel_linkers: Dict[str, KnowledgeBaseLinker], rel_uniprot_reference: ReferenceSet) -> None:
    big = KnowledgeBaseLinker.build("uniprot", rel_encoder, full_size_reference(rel_uniprot_reference), n_trees=10,
                                    settings=LinkerSettings(cache_size=0))
    make_pipeline({"uniprot": big, "chebi": rel_linkers["chebi"]}, with_ner=True).to_disk(tmp_path / "toy")
    assert (tmp_path / "toy/nseen_linker/kb_uniprot/names.ann").stat().st_size > 4 << 20
    report = run_check(tmp_path / "toy", tmp_path / "report.json", 2, "rel_support")
    assert report["n_linked"] > 0
    assert report["ok"], {name: lines for name, lines in report["checks"].items() if lines}
