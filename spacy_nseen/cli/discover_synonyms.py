"""`spacy-nseen discover-synonyms CORPUS_OR_ANNOTATIONS... --pipeline P --kb uniprot --out review.tsv`: mention
strings the reference set does not name → their best entity, for a curator's review (`spacy_nseen.synonyms`).

Each input is an annotate output directory, a contexts file (`collect-contexts`), or a corpus, which is annotated
first (into `--work`, resumable; `docs/annotate.md`).
"""

import time
from pathlib import Path
from typing import Dict, List, Optional, Set

import typer
from spacy.util import load_config

from ..errors import NseenError
from ..linker.kb_linker import load_linker
from ..synonyms.combination import ScoreCombiner
from ..synonyms.context_layer import load_synonymnet
from ..synonyms.contexts import FORMAT, MentionStats, collect_contexts, merge, read_contexts
from ..synonyms.discovery import DiscoverySettings, SynonymScorer, discover, entity_contexts
from ..synonyms.name_lookup import NameLookup
from ..synonyms.review_file import write_review_file
from . import app
from .printer import printer


def is_contexts_file(path: Path) -> bool:
    """RETURNS (bool): whether `path` is a contexts file (its first line names the format)."""
    if not path.is_file() or not path.name.endswith(".gz"):
        return False
    import gzip

    try:
        with gzip.open(path, "rt", encoding="utf8") as lines:
            return f'"format": "{FORMAT}"' in (lines.readline() or "")
    except (OSError, EOFError, UnicodeDecodeError):
        return False


def kb_labels(pipeline: Path, kb: str) -> Optional[Set[str]]:
    """RETURNS (Optional[Set[str]]): the entity labels the pipeline routes to `kb` (None: not in its config)."""
    try:
        config = load_config(pipeline / "config.cfg", interpolate=False)
        labels = config["components"]["nseen_linker"]["kbs"][kb]["labels"]
    except (KeyError, OSError, ValueError):
        return None
    return set(labels)


def gather_stats(inputs: List[Path], pipeline: Path, work: Path, max_contexts: int, msg) -> Dict[str, MentionStats]:
    """RETURNS (Dict[str, MentionStats]): the contexts of every input, annotating corpora first."""
    stats: Dict[str, MentionStats] = {}
    for i, path in enumerate(inputs):
        if is_contexts_file(path):
            more, _ = read_contexts(path)
        elif path.is_dir() and any(path.glob("shard-*.jsonl")):
            more = collect_contexts([path], max_contexts=max_contexts)
        else:
            from ..corpus.annotate import annotate_corpus

            target = work / f"annotations-{i}"
            msg.info(f"annotating {path} -> {target}")
            annotate_corpus(path, target, str(pipeline), progress=False)
            more = collect_contexts([target], max_contexts=max_contexts)
        stats = merge(stats, more, max_contexts)
    return stats


@app.command("discover-synonyms")
def discover_synonyms_command(
    inputs: List[Path] = typer.Argument(..., help="Corpora, annotate output directories or contexts files"),
    pipeline: Path = typer.Option(..., "--pipeline", "-p", help="The pipeline directory (with nseen_linker)"),
    kb: str = typer.Option(..., "--kb", help="The reference set, e.g. uniprot"),
    out: Path = typer.Option(..., "--out", "-o", help="The review file to write (.tsv or .tsv.gz)"),
    model: Optional[Path] = typer.Option(None, "--model", help="A trained SynonymNet directory (none: string only)"),
    work: Optional[Path] = typer.Option(None, "--work", help="Where corpora are annotated (default: next to --out)"),
    top_k: int = typer.Option(10, "--top-k", help="String candidates per mention"),
    min_mentions: int = typer.Option(2, "--min-mentions", help="Occurrences a mention needs"),
    max_link_probability: float = typer.Option(
        0.0, "--max-link-probability", help="Also propose for names linked with a mean probability below this"
    ),
    min_score: float = typer.Option(0.0, "--min-score", help="Write only rows scoring at least this"),
    max_contexts: int = typer.Option(16, "--max-contexts", help="Contexts kept per mention when collecting"),
    context_weight: float = typer.Option(
        0.0,
        "--context-weight",
        help="Rank candidates by the linker score + this × the context score (0: chosen on even Bio-ID documents)",
    ),
) -> None:
    """Propose entities for the mention strings the reference set does not name, with evidence, sorted for review."""
    msg = printer()
    linker_dir = pipeline / "nseen_linker" / f"kb_{kb}"
    if not linker_dir.is_dir():
        msg.fail(
            f"{linker_dir} not found: --pipeline must be a pipeline directory with an nseen_linker of --kb {kb}",
            exits=1,
        )
    if top_k < 1 or min_mentions < 1:
        typer.echo("error: --top-k and --min-mentions must be at least 1", err=True)
        raise typer.Exit(2)
    started = time.perf_counter()
    try:
        stats = gather_stats(inputs, pipeline, work or out.parent / "synonym_work", max_contexts, msg)
        linker = load_linker(linker_dir)
        lookup = NameLookup(linker.reference_set)
        layer, combiner = None, ScoreCombiner([0.0, 1.0, 0.0], [0.0, 1.0])
        if model is not None:
            layer, extra = load_synonymnet(model)
            combiner = ScoreCombiner.from_json(extra["combination"])
        labels = kb_labels(pipeline, kb)
        settings = DiscoverySettings(top_k, min_mentions, max_link_probability)
        per_entity = int(layer.attrs["shape"]["max_contexts"]) if layer is not None else 8
        contexts = entity_contexts(stats, lookup, labels, settings.max_entities, per_entity)
        scorer = SynonymScorer(linker, lookup, layer, combiner, contexts, top_k, context_weight)
        rows = [row for row in discover(stats, scorer, kb, labels, settings) if row.score >= min_score]
    except NseenError as err:
        msg.fail(str(err), exits=1)
    metadata = {
        "corpus": " ".join(str(p) for p in inputs),
        "pipeline": str(pipeline),
        "kb": kb,
        "model": str(model) if model is not None else "none (string scores only, not calibrated)",
        "mentions_in_corpus": str(len(stats)),
    }
    n_rows = write_review_file(out, rows, metadata)
    msg.good(f"{n_rows} proposed synonyms -> {out} ({time.perf_counter() - started:.0f} s)")
