"""Copy a saved NER pipeline with one gazetteer's names read again from a names file.

A gazetteer after the NER (`nseen_gazetteer`, e.g. `chemical_gazetteer` in `configs/ner.cfg`) is not learned, so
the effect of a new names list is measured on the same NER weights: relist, then score the copy with
`training.ner.ner_report` (results/ner/experiments/README.md, "The name selection counts names where the list
will match them").

    python -m experiments.relist_gazetteer training_output/ner/model-best corpus/ner/chemical_names.txt.gz \\
        /tmp/ner_relisted --component chemical_gazetteer
"""
from pathlib import Path

import spacy
import typer
from wasabi import msg

from spacy_nseen.ner.gazetteer import Gazetteer  # importing the package registers nseen_gazetteer

app = typer.Typer(add_completion=False)


def relist(model: Path, names: Path, output: Path, component: str) -> int:
    """Load `model`, read `component`'s names again from `names`, save the pipeline to `output`.
    RETURNS (int): the number of listed keys."""
    nlp = spacy.load(model)
    if component not in nlp.pipe_names:
        raise ValueError(f"{model} has no component {component!r} (it has {', '.join(nlp.pipe_names)})")
    gazetteer = nlp.get_pipe(component)
    if not isinstance(gazetteer, Gazetteer):
        raise ValueError(f"{component!r} in {model} is not an nseen_gazetteer")
    gazetteer.initialize(lambda: [], nlp=nlp, names_path=str(names))
    nlp.to_disk(output)
    return len(gazetteer)


@app.command()
def main(
    model: Path = typer.Argument(..., help="A saved pipeline with the gazetteer (e.g. training_output/ner/model-best)"),
    names: Path = typer.Argument(..., help="The names file, one per line (.gz allowed)"),
    output: Path = typer.Argument(..., help="Where to save the copy"),
    component: str = typer.Option("chemical_gazetteer", "--component", help="The gazetteer's name in the pipeline"),
) -> None:
    """Save a copy of the pipeline with the gazetteer's names read from NAMES."""
    for path in (model, names):
        if not path.exists():
            msg.fail(f"{path}: not found", exits=1)
    try:
        keys = relist(model, names, output, component)
    except ValueError as e:
        msg.fail(str(e), exits=1)
    msg.good(f"{component}: {keys:,} keys from {names} → {output}")


if __name__ == "__main__":
    app()
