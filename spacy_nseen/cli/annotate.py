"""`python -m spacy_nseen annotate INPUT OUTPUT --pipeline NAME_OR_PATH`: annotate a corpus into resumable
shards, in this process, in local processes (`--n-process`) or on a Dask cluster (`--dask`)."""

import sys
from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from ..corpus.annotate import annotate_corpus
from ..corpus.engines import Engine, InProcessEngine, ProcessPoolEngine
from ..corpus.errors import CorpusError
from ..corpus.readers import READERS
from ..corpus.worker import OUTPUT_FORMATS
from ..errors import NseenError
from . import app


def make_engine(
    pipeline: str,
    n_process: int,
    dask: bool,
    scheduler: Optional[str],
    output_format: str,
    batch_size: int,
    memory_limit: str,
) -> Engine:
    """RETURNS (Engine): The engine the options ask for."""
    if dask or scheduler:
        from ..corpus.distributed import DaskEngine

        return DaskEngine(pipeline, scheduler, n_process, output_format, batch_size, memory_limit)
    if n_process > 1:
        return ProcessPoolEngine(pipeline, n_process, output_format, batch_size)
    return InProcessEngine(pipeline, output_format, batch_size)


@app.command("annotate")
def annotate_command(
    input_path: Path = typer.Argument(
        ..., metavar="INPUT", help=f"Corpus: a file or a directory of .txt ({', '.join(sorted(READERS))})"
    ),
    output_dir: Path = typer.Argument(..., metavar="OUTPUT", help="Output directory of shards (rerun to resume)"),
    pipeline: str = typer.Option(..., "--pipeline", "-p", help="Pipeline package name or path"),
    input_format: str = typer.Option("auto", "--format", help=f"Input format: auto or one of {sorted(READERS)}"),
    output_format: str = typer.Option("jsonl", "--output-format", help=f"One of {list(OUTPUT_FORMATS)}"),
    n_process: int = typer.Option(1, "--n-process", "-n", help="Worker processes (local workers with --dask)"),
    dask: bool = typer.Option(False, "--dask", help="Run on a local Dask cluster of --n-process workers"),
    scheduler: Optional[str] = typer.Option(
        None, "--scheduler", help="Dask scheduler address, e.g. tcp://host:8786 (implies --dask)"
    ),
    memory_limit: str = typer.Option("auto", "--memory-limit", help="Memory limit per local Dask worker, e.g. 2GB"),
    shard_size: int = typer.Option(1000, "--shard-size", help="Texts per shard (the unit of resume)"),
    batch_size: int = typer.Option(64, "--batch-size", help="Docs per nlp.pipe batch"),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the shards of a run with other settings"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar"),
    context: bool = typer.Option(
        True, "--context/--no-context", help="Give each text its article's other texts as context (docs/annotate.md)"
    ),
) -> None:
    """Annotate a corpus with a pipeline: entities with ids, scores and candidates, as JSONL or BioC XML shards."""
    if output_format not in OUTPUT_FORMATS:
        msg.fail(f"--output-format {output_format!r}: use one of {list(OUTPUT_FORMATS)}")
        sys.exit(2)
    if n_process < 1 or shard_size < 1 or batch_size < 1:
        msg.fail("--n-process, --shard-size and --batch-size must be at least 1")
        sys.exit(2)
    try:
        engine = make_engine(pipeline, n_process, dask, scheduler, output_format, batch_size, memory_limit)
    except ImportError as err:
        msg.fail(str(err), exits=1)
    try:
        summary = annotate_corpus(
            input_path,
            output_dir,
            pipeline,
            engine=engine,
            input_format=input_format,
            output_format=output_format,
            shard_size=shard_size,
            batch_size=batch_size,
            overwrite=overwrite,
            progress=progress,
            context=context,
        )
    except (CorpusError, NseenError, OSError) as err:
        msg.fail(str(err), exits=1)
    finally:
        engine.close()
    linked = ", ".join(f"{kb} {n}" for kb, n in summary["linked"].items()) or "none"
    msg.good(
        f"{summary['texts']} texts ({summary['shards_resumed']} of {summary['shards']} shards resumed), "
        f"{summary['entities']} entities, linked: {linked}, unlinked {summary['unlinked']}, "
        f"{summary['bad_records']} bad records, {summary['seconds']:.1f} s ({summary['texts_per_second']} texts/s)"
    )
    if summary["bad_records"]:
        msg.warn(f"bad records skipped: see {output_dir / 'bad_records.jsonl'}")
    msg.info(f"output: {output_dir}")
