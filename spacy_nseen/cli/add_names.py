"""`spacy-nseen add-names PIPELINE review.tsv --out NEW_DIR`: a curator's accepted synonyms into a saved pipeline.

Loads the pipeline, adds each review file's accepted rows as names of kind `discovered` to the linker of their
reference set (`KnowledgeBaseLinker.add_names`: no rebuild), and saves the pipeline to a new directory (the loaded
one's files are memory-mapped, so it is never written over). Nothing is saved when a file is bad or, without
`--skip-unknown`, when a row names an id its linker does not have.
"""

import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import typer

from ..component import NseenLinker
from ..errors import ArtifactError
from ..linker.added_names import UnknownIdsError, plan_names
from ..synonyms.review_file import read_review_file
from . import app
from .errors import reported_errors
from .review_names import review_source

FACTORY = "nseen_linker"


def linker_pipe(nlp, path: Path) -> NseenLinker:
    """RETURNS (NseenLinker): the pipeline's `nseen_linker` component (an ArtifactError when it has none)."""
    for name in nlp.pipe_names:
        if nlp.get_pipe_meta(name).factory == FACTORY:
            return nlp.get_pipe(name)
    raise ArtifactError(
        path, "has no nseen_linker component", "Give the directory of a pipeline saved with nlp.to_disk"
    )


@app.command("add-names")
def add_names(
    pipeline: Path = typer.Argument(..., help="A saved pipeline with an nseen_linker (nlp.to_disk)"),
    reviews: List[Path] = typer.Argument(..., help="Synonym review files (discover-synonyms, reviewed by a curator)"),
    out: Path = typer.Option(..., "--out", "-o", help="Directory to save the pipeline with the added names to"),
    kb: Optional[str] = typer.Option(
        None, "--kb", help="Add the accepted rows of this reference set only (default: of every set the pipeline has)"
    ),
    skip_unknown: bool = typer.Option(
        False, "--skip-unknown", help="Leave out rows whose kb_id is not in their linker (default: an error)"
    ),
) -> None:
    """Add the accepted rows of review files as names of kind 'discovered' to a pipeline's linkers; save it anew."""
    import spacy

    if out.resolve() == pipeline.resolve():
        raise typer.BadParameter(
            "a directory other than PIPELINE (its files are in use while it is loaded)", param_hint="--out"
        )
    start = time.monotonic()
    with reported_errors():
        files = [(path, read_review_file(path)) for path in reviews]  # every file checked before the pipeline loads
        if not pipeline.is_dir():
            raise ArtifactError(pipeline, "pipeline directory not found", "Give the directory of nlp.to_disk")
        try:
            nlp = spacy.load(pipeline)
        except OSError as err:  # not a saved pipeline (spaCy's E050/E053)
            raise ArtifactError(
                pipeline, f"cannot be loaded as a pipeline ({err})", "Give a directory of nlp.to_disk"
            ) from None
        pipe = linker_pipe(nlp, pipeline)
        if kb is not None and kb not in pipe.linkers:
            raise ArtifactError(pipeline, f"has no linker for '{kb}' (it has {sorted(pipe.linkers)})", "Choose --kb")
        plans: List[Tuple[str, str, list]] = []
        unknown: Dict[str, List[str]] = {}
        for path, review in files:
            kbs = [kb] if kb is not None else sorted({row.kb for row in review.accepted()})
            for name in kbs:
                rows = review.accepted_names(name)
                if name not in pipe.linkers:
                    typer.echo(
                        f"{path}: {len(rows)} accepted row(s) for '{name}', which the pipeline has no linker for: skipped"
                    )
                    continue
                plan = plan_names(pipe.linkers[name], rows)
                unknown.setdefault(name, []).extend(plan.unknown)
                plans.append((name, review_source(review, path), rows))
            decisions = [row.decision for row in review.rows if kb is None or row.kb == kb]
            typer.echo(
                f"{path}: {len(decisions)} row(s): {decisions.count('accept')} accepted, "
                f"{decisions.count('reject')} rejected, {decisions.count('')} not reviewed"
            )
        missing = {name: ids for name, ids in unknown.items() if ids}
        if missing and not skip_unknown:
            name, ids = next(iter(missing.items()))
            raise UnknownIdsError(name, list(dict.fromkeys(ids)))
        added: Dict[str, int] = {}
        for name, source, rows in plans:
            added[name] = added.get(name, 0) + pipe.add_names(name, rows, source, skip_unknown=True)
        nlp.to_disk(out)
    for name in sorted(set(added) | set(unknown)):
        ids = list(dict.fromkeys(unknown.get(name, [])))
        left_out = f"; {len(ids)} unknown id(s) left out: {', '.join(ids[:10])}" if ids else ""
        total = pipe.linkers[name].names_metadata()["n_names"]
        typer.echo(f"{name}: {added.get(name, 0)} name(s) added ({total} discovered names in all){left_out}")
    typer.echo(f"add-names: saved to {out} in {time.monotonic() - start:.1f} s")
