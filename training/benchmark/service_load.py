"""The service's bounded load test, on 127.0.0.1 only: `spacy-nseen serve` with 1 and 2 workers, single-caption
requests at 1, 4 and 16 concurrent clients, 100-caption batches, a soak of many requests with the workers' RSS and
PSS (/proc/PID/smaps_rollup) at its start and end, and the faults (a worker killed, SIGTERM in flight).

    python -m training.benchmark.service_load --pipeline /work/pipelines/full \\
        --captions ../shared/data/bioid/captions.tsv.gz --out results/service

Writes OUT/load.json and OUT/load.md (the table and this command).
"""

import asyncio
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Sequence

import typer

from training.common.data_errors import run_cli

from .benchmark_texts import benchmark_texts
from .load_client import run_load, summarise
from .process_memory import process_memory
from .service_faults import kill_a_worker, sigterm_in_flight
from .service_server import ServiceProcess

MB = 1 << 20


def worker_memory(server: ServiceProcess) -> List[Dict[str, float]]:
    """RETURNS (List[Dict[str, float]]): Per worker, its pid, RSS, PSS and anonymous memory in MB."""
    rows = []
    for pid in server.worker_pids():
        memory = process_memory(pid)
        if memory is not None:
            rows.append({"pid": pid, "rss_mb": round(memory["rss"] / MB, 1), "pss_mb": round(memory["pss"] / MB, 1),
                         "anon_mb": round(memory.get("anon", 0) / MB, 1)})
    return rows


def pipeline_alone(pipeline: str, texts: Sequence[str], n_single: int, n_batches: int) -> Dict[str, Any]:
    """The pipeline's own speed in a subprocess with one compute thread, on texts the service is not sent: the
    floor under the service's latency on this machine at this time.

    RETURNS (Dict[str, Any]): Single-caption p50/p95 (ms) and captions/s of 100-caption batches.
    """
    code = (
        "import json, sys, time, numpy\n"
        "from spacy_nseen.service.pipeline import ServicePipeline\n"
        "args = json.loads(sys.stdin.read())\n"
        "nlp = ServicePipeline.load(args['pipeline']).nlp\n"
        "texts = args['texts']; n = args['n_single']\n"
        "list(nlp.pipe(texts[:20]))\n"
        "times = []\n"
        "for text in texts[20:20 + n]:\n"
        "    start = time.perf_counter(); nlp(text); times.append(time.perf_counter() - start)\n"
        "start = time.perf_counter(); batches = texts[20 + n:]\n"
        "for i in range(0, len(batches), 100): list(nlp.pipe(batches[i:i + 100]))\n"
        "seconds = time.perf_counter() - start\n"
        "ms = numpy.array(times) * 1000\n"
        "print(json.dumps({'single_p50_ms': round(float(numpy.percentile(ms, 50)), 1),\n"
        "    'single_p95_ms': round(float(numpy.percentile(ms, 95)), 1), 'single_requests': n,\n"
        "    'batch_captions': len(batches), 'batch_captions_per_s': round(len(batches) / seconds, 2)}))\n"
    )
    chosen = list(texts[: 20 + n_single + 100 * n_batches])
    payload = json.dumps({"pipeline": pipeline, "texts": chosen, "n_single": n_single})
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], input=payload, capture_output=True, text=True, env=env, timeout=1800, check=True
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def single_bodies(texts: Sequence[str]) -> List[Dict[str, Any]]:
    return [{"texts": [text]} for text in texts]


def batch_bodies(texts: Sequence[str], size: int) -> List[Dict[str, Any]]:
    return [{"texts": list(texts[i : i + size])} for i in range(0, len(texts) - size + 1, size)]


def run_scenarios(
    pipeline: str,
    texts: List[str],
    workers: int,
    n_requests: int,
    batch_requests: int,
    soak_requests: int,
    time_limit: float,
    faults: bool,
    log_dir: Path,
) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): The results of one server (`workers` workers)."""
    results: Dict[str, Any] = {"workers": workers, "single": {}, "batch": None, "soak": None, "faults": None}
    server = ServiceProcess(pipeline, workers, log_dir / f"server_{workers}w.log")
    started = time.perf_counter()
    server.start()
    results["start_seconds"] = round(time.perf_counter() - started, 1)
    results["memory_ready"] = worker_memory(server)
    offset = 0

    def take(n: int) -> List[str]:
        nonlocal offset
        chosen = [texts[(offset + i) % len(texts)] for i in range(n)]
        offset += n
        return chosen

    try:
        asyncio.run(run_load(server.url, single_bodies(take(20)), 2, 20, time_limit))  # warm-up, not counted
        for concurrency in (1, 4, 16):
            bodies = single_bodies(take(n_requests))
            outcomes = asyncio.run(run_load(server.url, bodies, concurrency, n_requests, time_limit))
            results["single"][str(concurrency)] = summarise(outcomes)
            print(workers, "single", concurrency, results["single"][str(concurrency)], flush=True)
        bodies = batch_bodies(take(100 * batch_requests), 100)
        outcomes = asyncio.run(run_load(server.url, bodies, workers, batch_requests, time_limit))
        results["batch"] = {"captions_per_request": 100, "concurrency": workers, **summarise(outcomes)}
        print(workers, "batch", results["batch"], flush=True)
        if soak_requests:
            start_memory = worker_memory(server)
            bodies = single_bodies(take(min(soak_requests, len(texts))))
            every = max(1, soak_requests // 5)
            samples: List[Dict[str, Any]] = []

            def sample(index: int) -> None:
                if index and index % every == 0:
                    samples.append({"after_requests": index, "workers": worker_memory(server)})

            outcomes = asyncio.run(run_load(server.url, bodies, 16, soak_requests, 20 * time_limit, on_request=sample))
            results["soak"] = {
                "concurrency": 16,
                **summarise(outcomes),
                "memory_start": start_memory,
                "memory_during": samples,
                "memory_end": worker_memory(server),
            }
            print(workers, "soak", results["soak"], flush=True)
        if faults:
            results["faults"] = {"kill_a_worker": kill_a_worker(server, single_bodies(take(200)))}
            print(workers, "kill", results["faults"]["kill_a_worker"], flush=True)
            results["faults"]["sigterm_in_flight"] = sigterm_in_flight(server, batch_bodies(take(400), 100))
            print(workers, "sigterm", results["faults"]["sigterm_in_flight"], flush=True)
    finally:
        server.stop()
    return results


def rerun_faults(pipeline: str, texts: List[str], workers: int, out: Path, log_dir: Path, command: str) -> None:
    """Run the faults again on a new server and put them into OUT/load.json's run of `workers` workers (the
    command that did is recorded beside the table's)."""
    results = json.loads((out / "load.json").read_text(encoding="utf8"))
    run = next(r for r in results["runs"] if r["workers"] == workers)
    with ServiceProcess(pipeline, workers, log_dir / f"faults_{workers}w.log") as server:
        offset = len(texts) // 3
        faults = {"kill_a_worker": kill_a_worker(server, single_bodies(texts[offset : offset + 200]))}
        faults["sigterm_in_flight"] = sigterm_in_flight(server, batch_bodies(texts[offset + 200 : offset + 600], 100))
    faults["command"] = command
    faults["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    run["faults"] = faults
    (out / "load.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf8")
    (out / "load.md").write_text(report(results, results["command"]), encoding="utf8")


def memory_cell(rows: List[Dict[str, float]]) -> str:
    return ", ".join(f"{r['rss_mb']:.0f}/{r['pss_mb']:.0f}/{r.get('anon_mb', 0):.0f}" for r in rows) or "-"


def report(results: Dict[str, Any], command: str) -> str:
    """RETURNS (str): The Markdown report: the command, the throughput/latency table, memory and faults."""
    lines = [
        "# Load test of `spacy-nseen serve` (127.0.0.1, bounded)",
        "",
        f"Command: `{command}`",
        "",
        f"Pipeline `{results['pipeline']}`, {results['captions']} distinct Bio-ID captions (mean "
        f"{results['mean_chars']:.0f} characters); {results['cpus']} CPU cores shared with other jobs; "
        f"{results['date']}; load average (1/5/15 min) {results['load_average_start']} at the start, "
        f"{results['load_average_end']} at the end. The service's default limits (a worker takes 1 + 8 queued "
        "requests; more get 503 + Retry-After, which the client honours and retries: `answers` counts every "
        "answer). Latencies are of 200 answers.",
        "",
        "| workers | request | clients | requests | answers | requests/s | captions/s | p50 ms | p95 ms | p99 ms |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for run in results["runs"]:
        rows = [("1 caption", c, s) for c, s in run["single"].items()]
        if run["batch"]:
            rows.append(("100 captions", run["batch"]["concurrency"], run["batch"]))
        if run["soak"]:
            rows.append(("1 caption (soak)", run["soak"]["concurrency"], run["soak"]))
        for kind, clients, s in rows:
            statuses = " ".join(f"{k}×{v}" for k, v in s["statuses"].items())
            lines.append(
                f"| {run['workers']} | {kind} | {clients} | {s['requests']} | {statuses} | {s['requests_per_s']} | "
                f"{s['texts_per_s']} | {s['p50_ms']} | {s['p95_ms']} | {s['p99_ms']} |"
            )
    alone = results.get("pipeline_alone")
    if alone:
        lines += [
            "",
            f"The pipeline alone, in one process with one thread, just before (no HTTP, no queue): one caption "
            f"p50 {alone['single_p50_ms']} ms, p95 {alone['single_p95_ms']} ms ({alone['single_requests']} captions); "
            f"100-caption batches {alone['batch_captions_per_s']} captions/s ({alone['batch_captions']} captions).",
        ]
    lines += ["", "## Memory per worker (RSS/PSS/anonymous MB, from /proc/PID/smaps_rollup; anonymous: the heap, the rest of",
              "RSS is pages of the memory-mapped indexes, shared between the workers and bounded by the files)", ""]
    lines += ["| workers | ready | soak start | soak end |", "|---|---|---|---|"]
    for run in results["runs"]:
        soak = run["soak"] or {}
        lines.append(
            f"| {run['workers']} | {memory_cell(run['memory_ready'])} | {memory_cell(soak.get('memory_start', []))} | "
            f"{memory_cell(soak.get('memory_end', []))} |"
        )
        for point in soak.get("memory_during", []):
            lines.append(
                f"| {run['workers']} | (soak, after {point['after_requests']} requests) | "
                f"{memory_cell(point['workers'])} | |"
            )
    for run in results["runs"]:
        faults = run.get("faults")
        if not faults:
            continue
        kill, term = faults["kill_a_worker"], faults["sigterm_in_flight"]
        lines += [
            "",
            f"## Faults ({run['workers']} workers)",
            "",
            f"- SIGKILL of worker {kill['killed']} after a quarter of {kill['load']['requests']} single-caption "
            f"requests (4 clients): statuses {kill['load']['statuses']}; replaced: {kill['replaced']} (workers "
            f"{kill['workers_before']} → {kill['workers_after']}); 40 requests after: "
            f"{kill['after_replacement']['statuses']}.",
            f"- SIGTERM {term['load']['requests']} 100-caption requests in flight: statuses {term['load']['statuses']}, "
            f"server exit code {term['exit_code']}.",
        ]
        if faults.get("command"):
            lines += ["", f"These faults were run again on {faults['date']} by `{faults['command']}`."]
    return "\n".join(lines) + "\n"


def main(
    pipeline: str = typer.Option(..., "--pipeline", help="Pipeline to serve (the full one for the report)"),
    captions: Path = typer.Option(..., "--captions", help="Bio-ID captions TSV (the mirror's)"),
    out: Path = typer.Option(Path("results/service"), "--out", help="Folder for load.json and load.md"),
    workers: str = typer.Option("1,2", "--workers", help="Worker counts, comma-separated"),
    n_requests: int = typer.Option(300, "--requests", help="Single-caption requests per concurrency"),
    batch_requests: int = typer.Option(20, "--batch-requests", help="100-caption requests"),
    soak_requests: int = typer.Option(10_000, "--soak", help="Requests of the memory soak (max workers only; 0: none)"),
    time_limit: float = typer.Option(120.0, "--time-limit", help="Seconds per scenario at most (the soak: 20×)"),
    faults: bool = typer.Option(True, "--faults/--no-faults", help="Kill a worker, SIGTERM in flight (max workers)"),
    faults_only: bool = typer.Option(False, "--faults-only", help="Only run the faults again, into OUT/load.json"),
) -> None:
    """Load-test the service on 127.0.0.1 and write the table."""
    counts = [int(w) for w in workers.split(",")]
    texts = benchmark_texts(captions, "train", 0)
    out.mkdir(parents=True, exist_ok=True)
    log_dir = Path(tempfile.mkdtemp(prefix="nseen-service-load-"))
    print(f"server logs: {log_dir}", flush=True)
    if faults_only:
        command = "python -m training.benchmark.service_load " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        rerun_faults(pipeline, texts, max(counts), out, log_dir, command)
        print((out / "load.md").read_text(encoding="utf8"))
        return
    results: Dict[str, Any] = {
        "pipeline": pipeline,
        "captions": len(texts),
        "mean_chars": sum(map(len, texts)) / len(texts),
        "cpus": len(os.sched_getaffinity(0)),
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average_start": [round(x, 2) for x in os.getloadavg()],
        "runs": [],
    }
    alone_texts = texts[len(texts) // 2 :]  # the service is sent texts from the start of the list
    results["pipeline_alone"] = pipeline_alone(pipeline, alone_texts, min(n_requests, 200), max(1, batch_requests // 2))
    print("pipeline alone", results["pipeline_alone"], flush=True)
    for count in counts:
        last = count == max(counts)
        results["runs"].append(
            run_scenarios(
                pipeline,
                texts,
                count,
                n_requests,
                batch_requests,
                soak_requests if last else 0,
                time_limit,
                faults and last,
                log_dir,
            )
        )
    results["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    command = "python -m training.benchmark.service_load " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    results["command"] = command
    (out / "load.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf8")
    (out / "load.md").write_text(report(results, command), encoding="utf8")
    print(report(results, command))


if __name__ == "__main__":
    run_cli(main)
