"""The texts the benchmark tags: the captions of one Bio-ID split, in file order, one line each.

    python -m training.benchmark.benchmark_texts ../shared/data/bioid/captions.tsv.gz OUT.txt --max-captions 3000

`training.benchmark.benchmark` (its pipeline, load and memory sections) and the A/B scripts in `scripts/` read the
same texts through `benchmark_texts`, so their figures are over the same captions.
"""
from pathlib import Path
from typing import List

import typer

from training.common.bioid import read_captions
from training.common.data_errors import run_cli


def benchmark_texts(captions: Path, split: str = "train", max_captions: int = 0) -> List[str]:
    """RETURNS (List[str]): the first `max_captions` captions of `split` (0: all), line breaks made spaces, so that
    a text file holds one caption per line."""
    return [c.text.replace("\n", " ") for c in read_captions(captions, splits={split})][: max_captions or None]


def write_benchmark_texts(path: Path, texts: List[str]) -> None:
    """Write texts one per line (what `training.benchmark.benchmark_probe --texts` reads)."""
    path.write_text("\n".join(texts), encoding="utf8")


def main(
    captions: Path = typer.Argument(..., help="Bio-ID captions TSV"),
    output: Path = typer.Argument(..., help="Text file to write, one caption per line"),
    split: str = typer.Option("train", "--split", help="Bio-ID split"),
    max_captions: int = typer.Option(0, "--max-captions", help="Captions to keep (0: all)"),
) -> None:
    """Write the benchmark's caption texts, one per line."""
    write_benchmark_texts(output, benchmark_texts(captions, split, max_captions))


if __name__ == "__main__":
    run_cli(main)
