"""Where a local Dask worker's CPU goes: the same shards on a local cluster of 2 workers started with `DaskEngine`'s
worker config, and with Dask's default `MALLOC_TRIM_THRESHOLD_=65536` put back, in interleaved rounds.

    python -m experiments.dask_overhead ../shared/data/bioid/captions.tsv.gz \\
        --pipeline training_output/pipeline --rounds 2 --output results/scale/dask_overhead.md

Per setup: texts/s, the workers' CPU seconds split into the task thread (the pipeline) and their other threads
(event loop, heartbeats), their system CPU and minor page faults, the driver's CPU (scheduler, nannies, client)
and whether the variable leaked into the driver's environment (a nanny sets it there before it spawns a worker).
"""
import json
import os
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import typer

from spacy_nseen.corpus import distributed as dask_engine
from spacy_nseen.corpus.annotate import annotate_corpus
from spacy_nseen.corpus.worker import limit_threads
from training.benchmark.benchmark_scale import CLOCK_TICKS, write_jsonl_sample

TRIM = "MALLOC_TRIM_THRESHOLD_"
TRIM_KEY = f"distributed.nanny.pre-spawn-environ.{TRIM}"
SETUPS: Dict[str, Optional[int]] = {"DaskEngine's worker config": None, f"with Dask's default {TRIM}=65536": 65536}


def thread_counters(pid: int) -> Dict[int, Tuple[float, float, int]]:
    """RETURNS (Dict[int, Tuple]): Per thread of `pid`: user CPU s, system CPU s, minor page faults (`/proc`)."""
    counters = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended
        counters[int(task.name)] = (int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS, int(fields[7]))
    return counters


def usage(before: Dict[int, Tuple[float, float, int]], after: Dict[int, Tuple[float, float, int]]) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): A process's CPU between two `thread_counters`: the busiest thread (`task`),
    the others, system CPU and minor faults."""
    deltas = [tuple(a - b for a, b in zip(now, before.get(tid, (0.0, 0.0, 0)))) for tid, now in after.items()]
    cpu = sorted((d[0] + d[1] for d in deltas), reverse=True)
    return {"task_thread_cpu": round(cpu[0], 2) if cpu else 0.0, "other_threads_cpu": round(sum(cpu[1:]), 2),
            "system_cpu": round(sum(d[1] for d in deltas), 2), "minor_faults": int(sum(d[2] for d in deltas))}


@contextmanager
def trim_threshold(value: Optional[int]) -> Iterator[None]:
    """Start `DaskEngine`s with `value` as the nannies' MALLOC_TRIM_THRESHOLD_ (None: unset), and restore the
    engine's config and this process's environment afterwards."""
    config, environ = dask_engine.WORKER_CONFIG, dict(os.environ)
    dask_engine.WORKER_CONFIG = {**config, TRIM_KEY: value}
    try:
        yield
    finally:
        dask_engine.WORKER_CONFIG = config
        os.environ.clear()
        os.environ.update(environ)


def run_setup(value: Optional[int], corpus: Path, warmup: Path, out: Path, pipeline: str, shard_size: int) -> Dict[str, Any]:
    """Annotate `corpus` on a fresh local cluster after a warm-up shard per worker. RETURNS: its figures."""
    with trim_threshold(value):
        engine = dask_engine.DaskEngine(pipeline, n_workers=2)
        try:
            leaked = os.environ.get(TRIM)
            annotate_corpus(warmup, out / "warmup", pipeline, engine=engine, shard_size=2, progress=False)
            pids = sorted(engine.worker_pids())
            before = {pid: thread_counters(pid) for pid in [os.getpid(), *pids]}
            start = time.perf_counter()
            summary = annotate_corpus(corpus, out / "run", pipeline, engine=engine, shard_size=shard_size, progress=False)
            seconds = time.perf_counter() - start
            after = {pid: thread_counters(pid) for pid in before}
        finally:
            engine.close()
    workers = [usage(before[pid], after[pid]) for pid in pids]
    driver = usage(before[os.getpid()], after[os.getpid()])
    return {"texts_per_second": round(summary["texts"] / seconds, 1), "seconds": round(seconds, 2), "workers": workers,
            "driver_cpu": round(driver["task_thread_cpu"] + driver["other_threads_cpu"], 2), "driver_env_trim": leaked}


def report(runs: Dict[str, List[Dict[str, Any]]], command: str) -> str:
    """RETURNS (str): The markdown table of every round."""
    lines = ["# Dask worker overhead: glibc's malloc trim threshold", "", f"Command: `{command}`", "",
             "| setup | round | texts/s | task thread CPU s (per worker) | other threads CPU s | system CPU s | minor faults | driver CPU s | driver's " + TRIM + " after start |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, rounds in runs.items():
        for i, run in enumerate(rounds, 1):
            cells = [", ".join(str(w[key]) for w in run["workers"])
                     for key in ("task_thread_cpu", "other_threads_cpu", "system_cpu", "minor_faults")]
            lines.append(f"| {name} | {i} | {run['texts_per_second']} | {' | '.join(cells)} | {run['driver_cpu']} | {run['driver_env_trim']} |")
    return "\n".join(lines) + "\n"


def main(
    captions: Path = typer.Argument(..., help="Captions file (any corpus format)"),
    pipeline: str = typer.Option("training_output/pipeline", "--pipeline"),
    limit: int = typer.Option(4000, "--limit"),
    shard_size: int = typer.Option(100, "--shard-size"),
    rounds: int = typer.Option(2, "--rounds", min=1),
    output: Path = typer.Option(Path("results/scale/dask_overhead.md"), "--output"),
) -> None:
    """Compare a local Dask cluster with and without Dask's MALLOC_TRIM_THRESHOLD_ in interleaved rounds."""
    import sys

    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = "1"
    limit_threads(1)
    command = "python -m experiments.dask_overhead " + " ".join(sys.argv[1:])
    runs: Dict[str, List[Dict[str, Any]]] = {name: [] for name in SETUPS}
    with tempfile.TemporaryDirectory(prefix="nseen-dask-overhead-") as tmp:
        work = Path(tmp)
        corpus, warmup = work / "captions.jsonl", work / "warmup.jsonl"
        write_jsonl_sample(captions, limit, corpus)
        write_jsonl_sample(captions, 8, warmup)
        for round_ in range(1, rounds + 1):
            for name, value in SETUPS.items():
                run = run_setup(value, corpus, warmup, work / f"{round_}-{value}", pipeline, shard_size)
                runs[name].append(run)
                print(f"round {round_}, {name}: {json.dumps(run)}", flush=True)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(report(runs, command), encoding="utf-8")
    output.with_suffix(".json").write_text(json.dumps({"command": command, "runs": runs}, indent=2) + "\n", encoding="utf-8")
    print(report(runs, command))


if __name__ == "__main__":
    typer.run(main)
