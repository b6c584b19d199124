"""What the random-access advice on memory-mapped artifacts (`spacy_nseen.retrieval.page_advice`) costs and saves:
the benchmark's linking and load sections run with `NSEEN_PAGE_ADVICE=none` and with the advice, in interleaved rounds.

    python -m experiments.page_advice_ab --linkers training_output/linkers/uniprot_multi \\
        --linkers training_output/linkers/chebi --pipeline training_output/pipeline \\
        --mentions ../shared/data/bioid/mentions.tsv.gz --captions ../shared/data/bioid/captions.tsv.gz \\
        --rounds 2 --output results/benchmark_multi/page_advice_ab.md

Per run: uncached distinct mentions/s (and per CPU second), warm `spacy.load`, and the peak RSS after linking
3,000 captions. Every run is a fresh `training.benchmark.benchmark` process, so each loads the artifacts anew.
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List

import typer

from training.common.headline import command_line

SETUPS = {"kernel read-ahead (NSEEN_PAGE_ADVICE=none)": "none", "random-access advice (default)": "random"}
app = typer.Typer(add_completion=False)


def run_benchmark(args: List[str], advice: str, workdir: Path, sections: str) -> Dict[str, Any]:
    """One benchmark process with `NSEEN_PAGE_ADVICE=advice`; RETURNS its figures (load and memory: None unless
    the load section runs, which also drops the page cache for its cold load)."""
    output = workdir / f"benchmark_{advice}.json"
    env = {**os.environ, "NSEEN_PAGE_ADVICE": advice}
    subprocess.run([sys.executable, "-m", "training.benchmark.benchmark", *args, "--sections", sections,
                    "--no-build", "--output", str(output)], check=True, env=env, stdout=subprocess.DEVNULL)
    data = json.loads(output.read_text(encoding="utf8"))
    uncached = data["linking"]["uncached"]["all"]
    memory = data.get("load_memory")
    return {"uncached_mentions_per_s": uncached["mentions_per_s"], "uncached_mentions_per_cpu_s": uncached["mentions_per_cpu_s"],
            "warm_load_seconds": memory["warm_load_seconds"] if memory else None,
            "peak_rss_mb": memory["after_run"]["VmHWM"] if memory else None}


@app.command()
def main(
    linkers: List[Path] = typer.Option(..., "--linkers", help="Linker directories (as for the benchmark)"),
    pipeline: Path = typer.Option(..., "--pipeline", help="The assembled pipeline"),
    mentions: Path = typer.Option(..., "--mentions", help="Bio-ID mentions TSV"),
    captions: Path = typer.Option(..., "--captions", help="Bio-ID captions TSV"),
    config: Path = typer.Option(Path("configs/pipeline.cfg"), "--config", help="Pipeline config of the linker settings"),
    rounds: int = typer.Option(2, "--rounds", help="Interleaved rounds of both setups"),
    sections: str = typer.Option("linking,load", "--sections", help="Benchmark sections: linking,load (load drops the page cache) or linking (warm cache, no memory figures)"),
    output: Path = typer.Option(Path("results/benchmark_multi/page_advice_ab.md"), "--output", help="Markdown (.json beside it)"),
) -> None:
    """Benchmark linking and loading with and without the random-access advice, interleaved."""
    args = [a for path in linkers for a in ("--linkers", str(path))] + [
        "--pipeline", str(pipeline), "--config", str(config), "--mentions", str(mentions), "--captions", str(captions),
        "--max-captions", "3000", "--threads", "1"]
    runs: List[Dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for round_no in range(1, rounds + 1):
            for label, advice in SETUPS.items():
                figures = run_benchmark(args, advice, Path(tmp), sections)
                runs.append({"round": round_no, "setup": label, **figures})
                typer.echo(f"round {round_no}, {label}: {figures}")
    command = command_line("experiments.page_advice_ab")
    lines = [f"# Page advice A/B: {rounds} interleaved rounds, sections {sections}", "", f"Command: `{command}`", "",
             "| round | setup | uncached mentions/s | per CPU second | warm spacy.load (s) | peak RSS (MB) |",
             "| --- | --- | --- | --- | --- | --- |"]
    lines += [f"| {r['round']} | {r['setup']} | {r['uncached_mentions_per_s']:.0f} | {r['uncached_mentions_per_cpu_s']:.0f} "
              f"| {'-' if r['warm_load_seconds'] is None else format(r['warm_load_seconds'], '.3f')} "
              f"| {'-' if r['peak_rss_mb'] is None else format(r['peak_rss_mb'], '.1f')} |" for r in runs]
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("\n".join(lines) + "\n", encoding="utf8")
    output.with_suffix(".json").write_text(json.dumps({"command": command, "runs": runs}, indent=2), encoding="utf8")
    typer.echo(f"Wrote {output} and {output.with_suffix('.json')}")


if __name__ == "__main__":
    app()
