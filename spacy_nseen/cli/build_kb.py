"""`python -m spacy_nseen build-kb NAMES.tsv OUTPUT --encoder DIR`: a linker directory for your own names."""

import json
import time
from pathlib import Path
from typing import List

import torch
import typer

from ..encoder.layer import PRECISIONS
from ..encoder.weights_io import build_encoder_from_disk, encoder_block
from ..linker.added_names import UnknownIdsError
from ..linker.kb_linker import KnowledgeBaseLinker
from ..linker.kb_nil import train_kb_nil
from ..linker.storage import save_linker
from ..reference.extra_names import with_extra_names
from ..reference.names_tsv import read_names_tsv
from ..reference.short_form_names import with_short_forms
from . import app
from .errors import reported_errors
from .review_names import review_names


@app.command("build-kb")
def build_kb(
    names: Path = typer.Argument(
        ...,
        help="Names file: kb_id<TAB>name[<TAB>kind] per line; a first line 'kb_id<TAB>name<TAB>kind' is read as the header",
    ),
    output: Path = typer.Argument(..., help="Linker directory to write (created; its files are replaced)"),
    encoder: Path = typer.Option(
        ...,
        "--encoder",
        "-e",
        help="A trained encoder directory, or any linker directory (its encoder is used; sizes are read from its encoder.json)",
    ),
    kb_name: str = typer.Option(
        "", "--kb-name", help="Reference set name used in the pipeline's 'kbs' (default: the output directory's name)"
    ),
    n_trees: int = typer.Option(20, "--n-trees", help="Annoy trees"),
    build_precision: str = typer.Option(
        "fp32", "--build-precision", help=f"Encoder precision for the names: {', '.join(PRECISIONS)}"
    ),
    threads: int = typer.Option(1, "--threads", help="torch threads"),
    seed: int = typer.Option(0, "--seed", help="Annoy seed"),
    short_forms: bool = typer.Option(
        False,
        "--short-forms/--no-short-forms",
        help="Also index the names' short forms, for protein and gene names: the symbol inside a descriptive name"
        " (`LC3 B` of `Autophagy-related protein LC3 B`) and the stem of a small paralog family (`ATG9` of ATG9A/ATG9B);"
        " searched, never exact matches (the project's UniProt linkers: dense Hits@1 0.755 -> 0.865)",
    ),
    nil: bool = typer.Option(
        True,
        "--nil/--no-nil",
        help="Fit the linker's NIL decision (nil_model.json: is the best id right?) on examples made from the names:"
        " own names and their case/dash/space variants against held-out entities, near misses and made-up names",
    ),
    nil_entities: int = typer.Option(
        2000, "--nil-entities", help="Entities sampled for the NIL examples (a quarter held out to measure it)"
    ),
    extra_names: List[Path] = typer.Option(
        [],
        "--extra-names",
        help="A synonym review file (discover-synonyms, reviewed by a curator): its accepted rows for this reference"
        " set (the kb column = --kb-name) become names of kind 'discovered'; repeatable (docs/adding_names.md)",
    ),
    skip_unknown: bool = typer.Option(
        False, "--skip-unknown", help="Leave out extra names whose kb_id is not in NAMES.tsv (default: an error)"
    ),
) -> None:
    """Embed every name with a trained encoder and write a linker directory for `nseen_linker`."""
    if build_precision not in PRECISIONS:
        raise typer.BadParameter(f"one of {', '.join(PRECISIONS)}", param_hint="--build-precision")
    if nil_entities < 2:
        raise typer.BadParameter("at least 2", param_hint="--nil-entities")
    torch.set_num_threads(threads)
    kb_name = kb_name or output.name
    start = time.monotonic()
    with reported_errors():
        reference = read_names_tsv(names)
        extra = with_extra_names(reference, [review_names(path, kb_name) for path in extra_names])
        if extra.unknown and not skip_unknown:
            raise UnknownIdsError(kb_name, extra.unknown)
        reference = extra.reference
        n_names = len(reference)
        if short_forms:
            reference = with_short_forms(reference)
        n_short_forms = len(reference) - n_names
        model = build_encoder_from_disk(encoder)
        linker = KnowledgeBaseLinker.build(
            kb_name, model, reference, n_trees=n_trees, seed=seed, build_precision=build_precision
        )
        linker.name_sources = dict(extra.added)
        nil_report = None
        if nil:
            try:
                linker.nil_model, nil_report = train_kb_nil(linker, n_entities=nil_entities, seed=seed)
            except ValueError as err:
                typer.echo(f"warning: no NIL model: {err}", err=True)
        save_linker(linker, output)
    block = {k: v for k, v in encoder_block(output).items() if k != "@architectures"}
    stats = {
        "kb": kb_name,
        "names_file": str(names),
        "encoder": str(encoder),
        "names": len(reference),
        "entities": reference.n_entities,
        "short_forms": n_short_forms,
        "discovered_names": linker.names_metadata(),
        "encoder_config": block,
        "build_precision": build_precision,
        "nil_model": nil_report,
        "seconds": round(time.monotonic() - start, 2),
    }
    (output / "build_stats.json").write_text(json.dumps(stats, indent=2), encoding="utf8")
    if extra_names:
        unknown = (
            f"; {len(extra.unknown)} unknown id(s) left out: {', '.join(extra.unknown[:10])}" if extra.unknown else ""
        )
        print(
            f"extra names: {sum(extra.added.values()):,} added as kind 'discovered' {extra.added}, "
            f"{extra.present:,} already names of their entity{unknown}"
        )
    added = f" (+{n_short_forms:,} short forms)" if short_forms else ""
    print(
        f"build-kb: {n_names:,} names{added} of {reference.n_entities:,} entities indexed as '{kb_name}' in "
        f"{stats['seconds']} s -> {output}"
    )
    if nil_report is not None:
        held = nil_report.get("held_out", {})
        figures = (
            f": on held-out entities ROC AUC {held['roc_auc']}, own names linked {held['recall']:.1%}, "
            f"wrong answers left unlinked {held['nil_recall']:.1%}"
            if held
            else ""
        )
        print(f"NIL model: threshold {nil_report['threshold']}{figures} (nil_model.json, build_stats.json)")
    print(
        f'Use it: nlp.add_pipe("nseen_linker", config={{"kbs": {{"{kb_name}": {{"labels": ["LABEL"]}}}}, '
        f'"encoder": spacy_nseen.encoder_block("{output}")}}), then initialize it with '
        f'kb_loaders={{"{kb_name}": spacy_nseen.linker_directory("{output}")}}'
    )
