"""Tagging speed of the NER (the assembled pipeline without `nseen_linker`) at two `nlp.pipe` batch sizes, in
interleaved rounds in one process (the peak memory of each size is the benchmark's, which runs the configured size).

    python -m experiments.ner_batch_size_ab training_output/pipeline ../shared/data/bioid/captions.tsv.gz \\
        --sizes 64,48 --rounds 3 --output results/benchmark_multi/ner_batch_size_ab.md
"""
import csv
import gzip
import time
from pathlib import Path
from typing import List

import spacy
import typer

app = typer.Typer(add_completion=False)


def first_captions(path: Path, limit: int) -> List[str]:
    """RETURNS (List[str]): the texts of the first `limit` captions of a Bio-ID captions TSV (gzip allowed)."""
    opener = gzip.open if path.suffix == ".gz" else open
    texts: List[str] = []
    with opener(path, "rt", encoding="utf8") as file_:  # type: ignore[operator]
        for row in csv.DictReader(file_, delimiter="\t"):
            texts.append(row["text"])
            if len(texts) == limit:
                break
    return texts


@app.command()
def main(pipeline: Path, captions: Path, sizes: str = typer.Option("64,48", help="Batch sizes, comma-separated"),
         rounds: int = typer.Option(3, min=1), max_captions: int = typer.Option(3000, min=1),
         output: Path = typer.Option(..., help="Markdown file to write")) -> None:
    """Time the NER at each batch size, round after round."""
    batch_sizes = [int(s) for s in sizes.split(",") if s.strip()]
    nlp = spacy.load(pipeline, exclude=["nseen_linker"])
    texts = first_captions(captions, max_captions)
    list(nlp.pipe(texts[:64]))  # warm-up
    rows = []
    for round_ in range(rounds):
        for size in batch_sizes:
            start = time.perf_counter()
            count = sum(1 for _ in nlp.pipe(texts, batch_size=size))
            rows.append((round_ + 1, size, count / (time.perf_counter() - start)))
            typer.echo(f"round {round_ + 1}, batch {size}: {rows[-1][2]:.1f} captions/s")
    lines = [f"# NER tagging speed by batch size ({len(texts)} captions, one process)", "",
             f"Command: `python -m experiments.ner_batch_size_ab {pipeline} {captions} --sizes {sizes} "
             f"--rounds {rounds} --output {output}`", "", "| round | batch size | captions/s |", "| --- | --- | --- |"]
    lines += [f"| {r} | {s} | {v:.1f} |" for r, s, v in rows]
    output.write_text("\n".join(lines) + "\n", encoding="utf8")


if __name__ == "__main__":
    app()
