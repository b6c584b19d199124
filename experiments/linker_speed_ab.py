"""Uncached linking speed of two or more linker directories, in interleaved rounds in one process (the same
distinct protein and gene mention strings of a Bio-ID mentions file, top 10, one thread, the cache cleared before
each pass; a first pass of each warms its pages, so the figures are those of the page cache warm).

    python -m experiments.linker_speed_ab --linker nfc=/work/backup/linkers_nfc/uniprot_multi \\
        --linker fold=training_output/linkers/uniprot_multi --mentions ../shared/data/bioid/mentions.tsv.gz \\
        --output results/benchmark_multi/char_fold_linking_ab.md
"""
import time
from pathlib import Path
from typing import Dict, List

import torch
import typer

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker, load_linker
from training.common.bioid import read_mentions

app = typer.Typer(add_completion=False)


def distinct_mentions(path: Path, types: List[str], limit: int) -> List[str]:
    """RETURNS (List[str]): the first `limit` distinct mention texts of these entity types, sorted."""
    return sorted({m.text for m in read_mentions(path) if m.entity_type in types})[:limit]


@app.command()
def main(linker: List[str] = typer.Option(..., help="name=directory, two or more"),
         mentions: Path = typer.Option(..., help="Bio-ID mentions TSV (gzip allowed)"),
         types: str = typer.Option("protein,gene", help="Entity types whose mention texts are linked"),
         max_mentions: int = typer.Option(5101, min=1), rounds: int = typer.Option(3, min=1),
         output: Path = typer.Option(..., help="Markdown file to write")) -> None:
    """Time each linker on the same mentions, round after round."""
    torch.set_num_threads(1)
    pairs = [item.partition("=") for item in linker]
    if len(pairs) < 2 or any(not name or not path for name, _, path in pairs):
        raise typer.BadParameter("give two or more name=directory", param_hint="--linker")
    linkers: Dict[str, KnowledgeBaseLinker] = {name: load_linker(path) for name, _, path in pairs}
    texts = distinct_mentions(mentions, [t.strip() for t in types.split(",") if t.strip()], max_mentions)
    for each in linkers.values():
        each.link(texts, top_k=10)  # warm-up: pages and lazy structures
    rows = []
    for round_no in range(1, rounds + 1):
        for name, each in linkers.items():
            each.clear_cache()
            wall, cpu = time.perf_counter(), time.process_time()
            each.link(texts, top_k=10)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            rows.append(f"| {round_no} | {name} | {len(texts) / wall:.0f} | {len(texts) / cpu:.0f} |")
            print(rows[-1], flush=True)
    command = "python -m experiments.linker_speed_ab " + " ".join(f"--linker {item}" for item in linker)
    command += f" --mentions {mentions} --types {types} --max-mentions {max_mentions} --rounds {rounds} --output {output}"
    lines = ["# Uncached linking speed, interleaved rounds", "", f"Command: `{command}`", "",
             f"{len(texts)} distinct mention strings ({types}), top 10, one thread, page cache warm.", "",
             "| round | linker | mentions/s | per CPU-second |", "| --- | --- | --- | --- |", *rows, ""]
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("\n".join(lines), encoding="utf8")


if __name__ == "__main__":
    app()
