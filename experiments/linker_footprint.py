"""Load time, linking speed and peak RSS of linker directories, each measured in a fresh process.

    python -m experiments.linker_footprint training_output/linkers/uniprot_fly training_output/linkers/uniprot_model \\
        --mentions corpus/sources/bioid/mentions.tsv.gz --output results/organisms_all/linker_footprint.json

Per linker: the load time of `KnowledgeBaseLinker.from_disk` (the first load, then a warm one in the same process),
the mentions per second of `link()` on the first `--n` distinct UniProt mention strings of the Bio-ID file (each
string once, so nothing is served from the linker's cache), and the process's peak RSS (`ru_maxrss`) after both.
On a shared machine the times carry its load: compare linkers measured in one run.
"""

import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List

import typer

from training.common.tsv_io import iter_tsv


def measure(linker_dir: Path, mentions: List[str]) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): load seconds (first, warm), mentions/s and peak RSS (MB) of one linker."""
    from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker

    start = time.perf_counter()
    KnowledgeBaseLinker.from_disk(linker_dir)
    first = time.perf_counter() - start
    start = time.perf_counter()
    linker = KnowledgeBaseLinker.from_disk(linker_dir)
    warm = time.perf_counter() - start
    start = time.perf_counter()
    linker.link(mentions, top_k=10)
    seconds = time.perf_counter() - start
    return {"load_seconds_first": round(first, 3), "load_seconds_warm": round(warm, 3),
            "mentions": len(mentions), "mentions_per_second": round(len(mentions) / seconds, 1),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "reference_entities": linker.reference_set.n_entities, "reference_names": len(linker.reference_set.names)}


def main(
    linkers: List[Path] = typer.Argument(..., help="Linker directories"),
    mentions: Path = typer.Option(..., "--mentions", help="Bio-ID mentions TSV"),
    output: Path = typer.Option(..., "--output", help="JSON to write"),
    n: int = typer.Option(2000, "--n", help="Distinct mention strings to link"),
    child: bool = typer.Option(False, "--child", hidden=True),
) -> None:
    """Measure each linker in its own process; write and print the figures."""
    if child:
        texts = list(dict.fromkeys(r["mention"] for r in iter_tsv(mentions, ("mention", "ids"))
                                   if "Uniprot:" in r["ids"]))[:n]
        print(json.dumps(measure(linkers[0], texts)))
        return
    results = {}
    for linker in linkers:
        out = subprocess.run([sys.executable, "-m", "experiments.linker_footprint", str(linker), "--mentions",
                              str(mentions), "--output", str(output), "--n", str(n), "--child"],
                             check=True, capture_output=True, text=True)
        results[str(linker)] = json.loads(out.stdout.strip().splitlines()[-1])
        typer.echo(f"{linker}: {results[str(linker)]}")
    command = ("python -m experiments.linker_footprint " + " ".join(map(str, linkers))
               + f" --mentions {mentions} --output {output} --n {n}")
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps({"command": command, "linkers": results}, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    typer.run(main)
