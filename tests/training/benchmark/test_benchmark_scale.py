import json
import os
from pathlib import Path

import pytest

from training.benchmark.benchmark_scale import (
    HEADLINE_KEY,
    projection,
    total_pss,
    update_headline_key,
    write_jsonl_sample,
)
from training.benchmark.process_memory import PeakMemory, parent_pid, process_memory


def test_projection_for_30_million_captions():
    p = projection(per_worker=50.0, pss_first=400.0, pss_added=100.0, hours=24.0, workers_per_machine=4)
    assert p["hours_on_this_machine_2_workers"] == round(30_000_000 / 100 / 3600, 1)
    assert p["workers_needed"] == 7  # 30e6 / (50 * 86400) = 6.94
    assert p["machines_needed"] == 2 and p["memory_per_machine_mb"] == 700.0


def test_total_pss_counts_driver_workers_and_helpers():
    run = {"driver": {"pss": 10.0}, "workers": [{"pss": 100.0}, {"pss": 50.0}], "helpers": [{"pss": 5.0}]}
    assert total_pss(run) == 165.0 and total_pss(run, with_driver=False) == 155.0


def test_headline_key_is_merged(tmp_path: Path):
    path = tmp_path / "headline.json"
    path.write_text(json.dumps({"e2e_f1": {"value": 0.2, "command": "python -m training.evaluation.evaluate_pipeline"}}))
    update_headline_key(path, HEADLINE_KEY, 1.9, "python -m training.benchmark.benchmark_scale x")
    data = json.loads(path.read_text())
    assert data["e2e_f1"]["value"] == 0.2
    assert data[HEADLINE_KEY] == {"value": 1.9, "command": "python -m training.benchmark.benchmark_scale x"}


def test_sample_of_a_captions_file(tmp_path: Path):
    captions = Path(__file__).parents[2] / "fixtures" / "eval" / "captions.tsv"
    assert write_jsonl_sample(captions, 1, tmp_path / "s.jsonl") == 1
    (line,) = (tmp_path / "s.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["id"] == "P001 Figure_1-A"


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="needs Linux /proc smaps_rollup")
def test_process_memory_of_this_process():
    memory = process_memory(os.getpid())
    assert memory is not None and 0 < memory["uss"] <= memory["rss"] and 0 < memory["pss"] <= memory["rss"]
    assert 0 < memory["anon"] <= memory["rss"]  # the heap; numpy's arrays live there
    assert parent_pid(os.getpid()) == os.getppid()
    assert process_memory(2**22 + 12345) is None
    with PeakMemory(lambda: [os.getpid()], interval=0.01) as peak:
        block = bytearray(50 * 1024 * 1024)
        block[::4096] = b"x" * len(block[::4096])
    assert peak.peaks[os.getpid()]["rss"] >= memory["rss"] + 40 * 1024 * 1024


@pytest.mark.skipif(not Path("/proc/stat").exists(), reason="needs Linux /proc/stat")
def test_cpu_accounting_sees_this_process_work():
    from training.benchmark.benchmark_scale import busy_cpu_seconds, process_cpu_seconds

    busy, mine = busy_cpu_seconds(), process_cpu_seconds([os.getpid()])
    total = 0
    for i in range(3_000_000):
        total += i
    spent = process_cpu_seconds([os.getpid()]) - mine
    assert spent > 0.0 and busy_cpu_seconds() - busy >= spent * 0.5
    assert process_cpu_seconds([2**22 + 12345]) == 0.0
