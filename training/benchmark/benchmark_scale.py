"""Scale benchmark of corpus annotation: texts/s of a pipeline on Bio-ID captions with 1 process, 2 local
processes and a local Dask cluster of 2 workers; peak memory (PSS) per worker; a projection for 30 million
captions. Writes `results/scale/scale.json` + `scale.md` and `scale_two_process_speedup` into
`results/headline.json`.

    python -m training.benchmark.benchmark_scale ../shared/data/bioid/captions.tsv.gz --pipeline training_output/pipeline

The machine's load (`/proc/loadavg`) is recorded beside each figure: a speed-up measured while other jobs
use the cores says little about the code.
"""
import json
import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Set, Tuple

import typer
from wasabi import msg

from spacy_nseen.corpus.annotate import annotate_corpus
from spacy_nseen.corpus.engines import Engine, InProcessEngine, ProcessPoolEngine
from spacy_nseen.corpus.readers import read_corpus
from spacy_nseen.corpus.records import TextRecord
from spacy_nseen.corpus.worker import limit_threads
from training.common.headline import update_headline
from training.benchmark.process_memory import PeakMemory, parent_pid

HEADLINE_KEY = "scale_two_process_speedup"
CORPUS_SIZE = 30_000_000
MB = 1024 * 1024


def load_average() -> List[float]:
    """RETURNS (List[float]): The 1, 5 and 15 minute load averages (what `uptime` prints)."""
    return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def busy_cpu_seconds() -> float:
    """RETURNS (float): CPU seconds all cores have spent busy since boot (`/proc/stat`)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / CLOCK_TICKS


def process_cpu_seconds(pids: Iterable[int]) -> float:
    """RETURNS (float): CPU seconds (user + system) the processes have used; gone ones count 0."""
    total = 0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


def write_jsonl_sample(captions: Path, limit: int, out: Path) -> int:
    """Write the first `limit` readable captions of any corpus file as JSONL. RETURNS (int): How many."""
    n = 0
    with open(out, "w", encoding="utf-8") as f:
        for item in read_corpus(captions):
            if isinstance(item, TextRecord):
                f.write(json.dumps({"id": item.id, "text": item.text}, ensure_ascii=False) + "\n")
                n += 1
                if n == limit:
                    break
    return n


def update_headline_key(path: Path, key: str, value: float, command: str) -> None:
    """Merge one figure into the headline file (`training.common.headline`)."""
    update_headline(path, {key: value}, command)


def measure(name: str, engine: Engine, pids: Callable[[], Iterable[int]], corpus: Path, warmup: Path, out: Path,
            pipeline: str, shard_size: int, batch_size: int, helpers: Iterable[int] = ()) -> Dict[str, Any]:
    """Time one engine on the corpus after a warm-up (each worker loads the pipeline), sampling the memory of
    the workers, this process (the driver) and `helpers` (e.g. Dask's nanny processes)."""
    annotate_corpus(warmup, out / f"{name}-warmup", pipeline, engine=engine, shard_size=2, batch_size=batch_size, progress=False)
    load_before = load_average()
    driver = os.getpid()
    helpers = set(helpers)
    ours = lambda: {driver, *pids(), *helpers}  # noqa: E731
    with PeakMemory(ours, interval=0.5) as memory:
        busy_before, ours_before = busy_cpu_seconds(), process_cpu_seconds(ours())
        start = time.perf_counter()
        summary = annotate_corpus(corpus, out / name, pipeline, engine=engine, shard_size=shard_size,
                                  batch_size=batch_size, progress=False)
        seconds = time.perf_counter() - start
        other_cpu = (busy_cpu_seconds() - busy_before) - (process_cpu_seconds(ours()) - ours_before)
    return {
        "texts": summary["texts"], "entities": summary["entities"], "seconds": round(seconds, 2),
        "texts_per_second": round(summary["texts"] / seconds, 2),
        "load_average_before": load_before, "load_average_after": load_average(),
        "other_jobs_cores": round(max(0.0, other_cpu) / seconds, 2),
        "workers": [{k: round(v / MB, 1) for k, v in peak.items()} for pid, peak in sorted(memory.peaks.items())
                    if pid not in helpers and (pid != driver or pid in set(pids()))],
        "helpers": [{k: round(v / MB, 1) for k, v in memory.peaks[pid].items()} for pid in sorted(helpers) if pid in memory.peaks],
        "driver": {k: round(v / MB, 1) for k, v in memory.peaks[driver].items()},
    }


def total_pss(run: Dict[str, Any], with_driver: bool = True) -> float:
    """PSS of a run's workers and helper processes, MB.

    with_driver (bool): Add the driver: a forking driver holds the pipeline the workers share; a spawning
        one does not need it (in this benchmark it still holds the 1-process run's copy, so leave it out).
    """
    return (run["driver"]["pss"] if with_driver else 0.0) + sum(w["pss"] for w in run["workers"] + run["helpers"])


def engine_processes(engine: Engine) -> Tuple[Callable[[], Iterable[int]], Set[int]]:
    """RETURNS (Tuple): A function giving the engine's worker processes (this one for the in-process
    engine) and the set of helper processes (Dask's nannies) whose memory counts too."""
    if isinstance(engine, InProcessEngine):
        return (lambda: [os.getpid()]), set()
    if isinstance(engine, ProcessPoolEngine):
        return engine.worker_pids, set()
    pids = engine.worker_pids()  # a Dask cluster's workers are all started
    nannies = {p for p in map(parent_pid, pids) if p is not None and p != os.getpid()}
    return (lambda: pids), nannies


def projection(per_worker: float, pss_first: float, pss_added: float, hours: float, workers_per_machine: int) -> Dict[str, Any]:
    """Wall time and machines for `CORPUS_SIZE` captions from the measured per-worker rate and memory."""
    workers = math.ceil(CORPUS_SIZE / (per_worker * hours * 3600))
    return {
        "captions": CORPUS_SIZE, "texts_per_second_per_worker": round(per_worker, 2),
        "hours_on_this_machine_2_workers": round(CORPUS_SIZE / (2 * per_worker) / 3600, 1),
        "deadline_hours": hours, "workers_needed": workers, "workers_per_machine": workers_per_machine,
        "machines_needed": math.ceil(workers / workers_per_machine),
        "memory_per_machine_mb": round(pss_first + (workers_per_machine - 1) * pss_added, 1),
    }


def report(results: Dict[str, Any]) -> str:
    """RETURNS (str): The markdown summary of a benchmark run."""
    lines = [
        "# Corpus annotation at scale", "",
        f"Command: `{results['command']}`  ", f"Pipeline: `{results['pipeline']}`; {results['texts']} Bio-ID captions; "
        f"shard size {results['shard_size']}, batch size {results['batch_size']}; {os.cpu_count()} CPU cores.", "",
        "| setup | texts/s (best) | each round | seconds | other jobs (cores) | load avg before → after | peak PSS per worker (MB) | USS per worker (MB) | driver PSS (MB) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, run in results["runs"].items():
        pss = ", ".join(str(w["pss"]) for w in run["workers"])
        uss = ", ".join(str(w["uss"]) for w in run["workers"])
        rounds = ", ".join(str(r) for r in run.get("texts_per_second_rounds", [run["texts_per_second"]]))
        lines.append(f"| {name} | {run['texts_per_second']} | {rounds} | {run['seconds']} | {run.get('other_jobs_cores', '')} | {run['load_average_before'][0]} → "
                     f"{run['load_average_after'][0]} | {pss} | {uss} | {run['driver']['pss'] if len(run['workers']) > 1 else '(the worker)'} |")
    f = results["figures"]
    p = results["projection"]
    lines += [
        "", f"- 2 processes (fork, the default of `--n-process`) / 1 process: **{f['two_process_speedup']}×** (target ≥ 1.8×); local cluster / 2 processes: "
        f"{f['cluster_vs_two_process']} (target ≥ 0.85).",
        f"- Memory: 1 worker {f['pss_one_worker_mb']} MB PSS; the second worker adds {f['pss_added_worker_mb']} MB "
        f"(PSS of driver + 2 forked workers − PSS of the 1-process run) = {f['added_worker_ratio']} of the first (target ≤ 0.6); "
        f"with spawned workers, which each load the pipeline, {f['pss_added_worker_spawn_mb']} MB = {f['added_worker_ratio_spawn']}. "
        f"Dask nanny processes apart from the driver: {', '.join(str(h['pss']) for h in results['runs'].get('local Dask cluster, 2 workers', {}).get('helpers', [])) or 'none (a local cluster runs them in the driver)'}.",
        f"- Outputs identical to the 1-process run: {f['outputs_identical']}.",
        f"- Projection for {p['captions']:,} captions at {p['texts_per_second_per_worker']} texts/s per worker: "
        f"{p['hours_on_this_machine_2_workers']} h on this machine (2 workers); within {p['deadline_hours']} h: "
        f"{p['workers_needed']} workers = {p['machines_needed']} machines of {p['workers_per_machine']} workers, "
        f"≈ {p['memory_per_machine_mb']} MB per machine.",
        "", f"Load: {results['load_note']}",
    ]
    return "\n".join(lines) + "\n"


def main(
    captions: Path = typer.Argument(..., help="Captions file (the mirror's captions TSV, or any corpus format)"),
    pipeline: str = typer.Option("training_output/pipeline", "--pipeline", help="Pipeline name or path"),
    limit: int = typer.Option(4000, "--limit", help="Captions to annotate per setup"),
    shard_size: int = typer.Option(100, "--shard-size"),
    batch_size: int = typer.Option(64, "--batch-size"),
    out: Path = typer.Option(Path("results/scale"), "--out"),
    headline: Path = typer.Option(Path("results/headline.json"), "--headline"),
    deadline_hours: float = typer.Option(24.0, "--deadline-hours", help="Projection: finish 30M captions within this"),
    workers_per_machine: int = typer.Option(2, "--workers-per-machine", help="Projection: workers per machine"),
    dask: bool = typer.Option(True, "--dask/--no-dask", help="Also measure a local Dask cluster"),
    rounds: int = typer.Option(2, "--rounds", min=1, help="Interleaved rounds over the setups; each setup's best counts"),
) -> None:
    """Measure texts/s and memory per worker of corpus annotation with 1 and 2 processes and a local cluster."""
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = "1"  # spawned workers and Dask's read these at start-up
    limit_threads(1)  # every setup uses one compute thread per worker, the 1-process one included
    command = "python -m training.benchmark.benchmark_scale " + " ".join(sys.argv[1:])
    work = Path(tempfile.mkdtemp(prefix="nseen-scale-"))
    try:
        corpus, warmup = work / "captions.jsonl", work / "warmup.jsonl"
        n = write_jsonl_sample(captions, limit, corpus)
        write_jsonl_sample(captions, 8, warmup)
        msg.info(f"{n} captions from {captions}; pipeline {pipeline}; load average {load_average()}")
        setups: Dict[str, Tuple[str, Callable[[], Engine]]] = {
            "1 process": ("single", lambda: InProcessEngine(pipeline, batch_size=batch_size)),
            "2 processes": ("fork", lambda: ProcessPoolEngine(pipeline, 2, batch_size=batch_size, start_method="fork")),
            "2 processes (spawn)": ("spawn", lambda: ProcessPoolEngine(pipeline, 2, batch_size=batch_size, start_method="spawn")),
        }
        if dask:
            from spacy_nseen.corpus.distributed import DaskEngine

            setups["local Dask cluster, 2 workers"] = ("dask", lambda: DaskEngine(pipeline, n_workers=2, batch_size=batch_size))
        runs: Dict[str, Dict[str, Any]] = {}
        for round_ in range(1, rounds + 1):  # interleaved, so a slow spell of the machine hits every setup
            for name, (key, make_engine) in setups.items():
                engine = make_engine()  # one engine alive at a time: its memory is its own
                try:
                    pids, helpers = engine_processes(engine)
                    run = measure(f"{key}-{round_}", engine, pids, corpus, warmup, work, pipeline, shard_size,
                                  batch_size, helpers=helpers)
                finally:
                    engine.close()
                rates = runs.get(name, {}).get("texts_per_second_rounds", []) + [run["texts_per_second"]]
                if name not in runs or run["texts_per_second"] > runs[name]["texts_per_second"]:
                    runs[name] = run
                runs[name]["texts_per_second_rounds"] = rates
                msg.good(f"round {round_}, {name}: {run['texts_per_second']} texts/s")
        names = {name: key for name, (key, _) in setups.items()}
        names = {name: f"{key}-1" for name, key in names.items()}
        reference = sorted((work / "single-1").glob("shard-*.jsonl"))
        identical = all(
            [p.read_bytes() for p in sorted((work / d).glob("shard-*.jsonl"))] == [p.read_bytes() for p in reference]
            for d in names.values()
        )
        one, two = runs["1 process"], runs["2 processes"]
        speedup = round(two["texts_per_second"] / one["texts_per_second"], 3)
        pss_one = one["driver"]["pss"]  # the one process is driver and worker
        pss_added = round(total_pss(two) - pss_one, 1)
        spawn = runs["2 processes (spawn)"]
        pss_added_spawn = round(total_pss(spawn, with_driver=False) - pss_one, 1)
        cluster_run = runs.get("local Dask cluster, 2 workers")
        per_worker = (cluster_run or two)["texts_per_second"] / 2
        max_other = max(r["other_jobs_cores"] for r in runs.values())
        results = {
            "command": command, "pipeline": pipeline, "texts": n, "shard_size": shard_size, "batch_size": batch_size,
            "runs": runs,
            "figures": {
                "two_process_speedup": speedup,
                "cluster_vs_two_process": round(cluster_run["texts_per_second"] / two["texts_per_second"], 3) if cluster_run else None,
                "pss_one_worker_mb": pss_one, "pss_added_worker_mb": pss_added,
                "added_worker_ratio": round(pss_added / pss_one, 3), "outputs_identical": identical,
                "pss_added_worker_spawn_mb": pss_added_spawn, "added_worker_ratio_spawn": round(pss_added_spawn / pss_one, 3),
            },
            "projection": projection(per_worker, pss_one, pss_added, deadline_hours, workers_per_machine),
            "load_note": (
                f"other processes than the benchmark's used at most {max_other} of the {os.cpu_count()} cores during a run"
                + (" — the machine was busy with other jobs, so the speed-ups are not a measure of the code: rerun on an idle machine."
                   if max_other > 0.1 else " (idle enough for the speed-ups to be meaningful).")
            ),
        }
        out.mkdir(parents=True, exist_ok=True)
        (out / "scale.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        (out / "scale.md").write_text(report(results), encoding="utf-8")
        update_headline_key(headline, HEADLINE_KEY, speedup, command)
        print(report(results))
        msg.good(f"wrote {out / 'scale.json'}, {out / 'scale.md'} and {HEADLINE_KEY} = {speedup} into {headline}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    typer.run(main)
