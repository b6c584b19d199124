"""`python -m spacy_nseen annotate INPUT OUTPUT --pipeline NAME_OR_PATH`: annotate a corpus into resumable
shards, in this process, in local processes (`--n-process`) or on a Dask cluster (`--dask`).

Every option, the input and the pipeline are checked before the output directory is touched. Exit status: 0,
1 when the run failed, 2 for a bad option, 3 when `--strict` found skipped records or duplicate ids (the
output is complete otherwise and `summary.json` counts them)."""

import sys
from pathlib import Path
from typing import Optional

import typer

from ..corpus.annotate import annotate_corpus
from ..corpus.engines import Engine, InProcessEngine, ProcessPoolEngine
from ..corpus.errors import CorpusError
from ..corpus.readers import READERS
from ..corpus.validation import check_pipeline, check_settings
from ..corpus.worker import OUTPUT_FORMATS
from ..errors import NseenError
from . import app
from .printer import printer

STRICT_EXIT = 3


def make_engine(
    pipeline: str,
    n_process: int,
    dask: bool,
    scheduler: Optional[str],
    output_format: str,
    batch_size: int,
    memory_limit: str,
    connect_timeout: float = 5.0,
) -> Engine:
    """RETURNS (Engine): The engine the options ask for."""
    if dask or scheduler:
        from ..corpus.distributed import DaskEngine

        return DaskEngine(pipeline, scheduler, n_process, output_format, batch_size, memory_limit, connect_timeout)
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
    connect_timeout: float = typer.Option(
        5.0, "--connect-timeout", help="Seconds to wait for the --scheduler before failing"
    ),
    shard_size: int = typer.Option(1000, "--shard-size", help="Texts per shard (the unit of resume)"),
    batch_size: int = typer.Option(64, "--batch-size", help="Docs per nlp.pipe batch"),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the shards of a run with other settings"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show progress (texts/s of this run)"),
    context: bool = typer.Option(
        True, "--context/--no-context", help="Give each text its article's other texts as context (docs/annotate.md)"
    ),
    strict: bool = typer.Option(
        False,
        "--strict",
        help=f"Exit with status {STRICT_EXIT} when any record was skipped (bad records) or an id repeats",
    ),
) -> None:
    """Annotate a corpus with a pipeline: entities with ids, scores and candidates, as JSONL or BioC XML shards."""
    msg = printer()
    if n_process < 1 or connect_timeout <= 0:
        msg.fail("--n-process must be at least 1 and --connect-timeout above 0")
        sys.exit(2)
    try:
        check_settings(input_path, input_format, output_format, shard_size, batch_size)
        check_pipeline(pipeline)
    except ValueError as err:
        msg.fail(str(err))
        sys.exit(2)
    except (CorpusError, NseenError) as err:
        msg.fail(str(err), exits=1)
    try:
        engine = make_engine(
            pipeline, n_process, dask, scheduler, output_format, batch_size, memory_limit, connect_timeout
        )
    except ImportError as err:
        msg.fail(str(err), exits=1)
    except NseenError as err:
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
            check=False,
        )
    except (CorpusError, NseenError, OSError) as err:
        msg.fail(str(err), exits=1)
    finally:
        engine.close()
    linked = ", ".join(f"{kb} {n}" for kb, n in summary["linked"].items()) or "none"
    msg.good(
        f"{summary['texts']} texts ({summary['shards_resumed']} of {summary['shards']} shards resumed), "
        f"{summary['entities']} entities, linked: {linked}, unlinked {summary['unlinked']}, "
        f"{summary['bad_records']} bad records skipped, {summary['seconds']:.1f} s "
        f"({summary['texts_per_second']} texts/s this run)"
    )
    if summary["bad_records"]:
        msg.warn(f"bad records skipped: see {output_dir / 'bad_records.jsonl'}")
    if summary["duplicate_ids"]:
        examples = ", ".join(repr(i) for i in summary["duplicate_id_examples"])
        msg.warn(
            f"{summary['duplicate_ids']} records repeat an earlier id (e.g. {examples}); policy: "
            f"{summary['duplicate_policy']}"
        )
    if summary["generated_ids"]:
        msg.warn(f"{summary['generated_ids']} records had no id: their id is their position (file:line)")
    msg.info(f"output: {output_dir}")
    if strict and (summary["bad_records"] or summary["duplicate_ids"]):
        msg.fail(
            f"--strict: {summary['bad_records']} records skipped and {summary['duplicate_ids']} duplicate ids "
            f"(exit status {STRICT_EXIT})"
        )
        sys.exit(STRICT_EXIT)
