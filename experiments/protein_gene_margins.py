"""Copies of a trained NER, one per `nseen_protein_gene` margin, to choose the margin with the project's NER report
(results/ner/experiments/README.md, "PROTEIN or GENE by the caption's context").

    python -m experiments.protein_gene_margins training_output/ner/model-best /tmp/margins --margins 0,0.1,0.2,0.3,0.4 --without
    python -m training.ner.ner_report /tmp/margins/margin_0.2 corpus/ner/dev.spacy /tmp/margins/rep_even --documents even

Writes `OUTPUT/margin_<m>` per margin (the model with `protein_gene.margin = m`) and, with `--without`,
`OUTPUT/without` (the model without the component: the NER as it was).
"""
from pathlib import Path
from typing import List

import spacy
import typer

import spacy_nseen  # noqa: F401  (registers the components)

COMPONENT = "protein_gene"
app = typer.Typer(add_completion=False)


def margin_copies(model: Path, output: Path, margins: List[float], without: bool = False) -> List[Path]:
    """Write the copies (see the module doc). RETURNS (List[Path]): their directories, in order."""
    nlp = spacy.load(model)
    if COMPONENT not in nlp.pipe_names:
        raise typer.BadParameter(f"{model} has no '{COMPONENT}' component (pipeline: {nlp.pipe_names})")
    for margin in margins:
        if not 0.0 <= margin < 0.5:
            raise typer.BadParameter(f"a margin must be in [0, 0.5), got {margin}")
    output.mkdir(parents=True, exist_ok=True)
    written: List[Path] = []
    for margin in margins:
        nlp.get_pipe(COMPONENT).margin = margin
        written.append(output / f"margin_{margin:g}")
        nlp.to_disk(written[-1])
    if without:
        written.append(output / "without")
        spacy.load(model, exclude=[COMPONENT]).to_disk(written[-1])
    return written


@app.command()
def main(model: Path, output: Path, margins: str = typer.Option("0,0.1,0.2,0.3,0.4", help="Margins, comma-separated"),
         without: bool = typer.Option(False, "--without", help="Also write the model without the component")) -> None:
    """Write one copy of MODEL per margin into OUTPUT."""
    for path in margin_copies(model, output, [float(m) for m in margins.split(",") if m.strip()], without):
        typer.echo(str(path))


if __name__ == "__main__":
    app()
