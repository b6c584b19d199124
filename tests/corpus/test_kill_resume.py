"""SIGKILL the annotate command at a random moment, run it again, and get the uninterrupted output."""
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import pytest
from corpus_support import read_shards

ROOT = Path(__file__).parents[2]


def command(corpus: Path, output: Path, pipeline: str, *extra: str) -> List[str]:
    return [sys.executable, "-m", "spacy_nseen", "annotate", str(corpus), str(output), "--pipeline", pipeline,
            "--shard-size", "4", "--no-progress", *extra]


def kill_after_first_shard(args: List[str], output: Path, delay: float) -> bool:
    """Start a run, SIGKILL it `delay` seconds after its first shard appears. RETURNS: whether it was killed
    before it finished (no summary written)."""
    process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 300
    while not list(output.glob("shard-*.jsonl")) and time.monotonic() < deadline:
        assert process.poll() is None, "the run ended before writing a shard"
        time.sleep(0.02)
    time.sleep(delay)
    os.killpg(process.pid, signal.SIGKILL)  # the command and its worker processes
    process.wait()
    return not (output / "summary.json").exists()


def run(args: List[str]) -> None:
    result = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr + result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("extra", [(), ("--n-process", "2")])
def test_sigkill_at_a_random_point_then_resume(tmp_path: Path, tiny_pipeline: str, write_jsonl, extra):
    corpus = write_jsonl(tmp_path / "c.jsonl", 240, extra=b'{"id": "no text"}\n')
    run(command(corpus, tmp_path / "whole", tiny_pipeline, *extra))
    seed = random.randrange(1_000_000)
    delay = random.Random(seed).uniform(0.0, 1.5)
    for _ in range(6):  # a kill after the run ended proves nothing: try again sooner
        killed = kill_after_first_shard(command(corpus, tmp_path / "killed", tiny_pipeline, *extra), tmp_path / "killed", delay)
        if killed:
            break
        shutil.rmtree(tmp_path / "killed")
        delay /= 4
    assert killed, f"every run ended before the kill (seed {seed})"
    done = len(list((tmp_path / "killed").glob("shard-*.jsonl")))
    run(command(corpus, tmp_path / "killed", tiny_pipeline, *extra))
    assert read_shards(tmp_path / "killed") == read_shards(tmp_path / "whole"), f"seed {seed}, {done} shards before the kill"
    assert (tmp_path / "killed" / "bad_records.jsonl").read_text() == (tmp_path / "whole" / "bad_records.jsonl").read_text()
    assert not list((tmp_path / "killed").glob("*.part"))
