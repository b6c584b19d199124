"""`spacy-nseen collect-contexts ANNOTATIONS... --out contexts.jsonl.gz`: per mention string, a bounded sample of
contexts and its linking outcome, from `spacy-nseen annotate` output (`spacy_nseen.synonyms.contexts`)."""

import time
from pathlib import Path
from typing import List, Optional

import typer

from ..errors import NseenError
from ..synonyms.contexts import collect_contexts, write_contexts
from . import app
from .printer import printer


@app.command("collect-contexts")
def collect_contexts_command(
    annotations: List[Path] = typer.Argument(..., help="annotate output directories (or their shard-*.jsonl files)"),
    out: Path = typer.Option(..., "--out", "-o", help="The contexts file to write (.jsonl.gz)"),
    max_contexts: int = typer.Option(16, "--max-contexts", help="Contexts kept per mention string"),
    labels: Optional[List[str]] = typer.Option(None, "--label", help="Keep only entities of this label (repeatable)"),
) -> None:
    """Collect, per mention string, its contexts (sentence + offsets + document) and how the pipeline linked it."""
    msg = printer()
    if max_contexts < 1:
        typer.echo(f"error: --max-contexts must be at least 1, got {max_contexts}", err=True)
        raise typer.Exit(2)
    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        stats = collect_contexts(annotations, max_contexts=max_contexts, labels=labels or None)
    except NseenError as err:
        msg.fail(str(err), exits=1)
    seconds = time.perf_counter() - started
    metadata = {
        "annotations": [str(path) for path in annotations],
        "max_contexts": max_contexts,
        "labels": labels or [],
        "seconds": round(seconds, 1),
        "cpu_seconds": round(time.process_time() - cpu_started, 1),
    }
    n_mentions = write_contexts(out, stats, metadata)
    occurrences = sum(item.n_mentions for item in stats.values())
    msg.good(f"{n_mentions} mention strings ({occurrences} occurrences) -> {out} in {seconds:.1f} s")
