"""The `nseen_protein_gene` margin sweep of results/ner/experiments/README.md (a record of how it was made).

    python results/ner/experiments/protein_gene_margins.py training_output/ner/model-best /tmp/margins 0 0.1 0.2 0.3 0.4
    python -m training.ner.ner_report /tmp/margins/margin_0.2 corpus/ner/dev.spacy /tmp/report_even --documents even

Writes one copy of a trained NER per margin (`MODEL` with `protein_gene.margin` set; a margin of -1 removes the
component: the NER without it); each is scored by the project's `training.ner.ner_report`.
"""
import sys
from pathlib import Path

import spacy

import spacy_nseen  # noqa: F401  (registers the components)


def main(model: str, output: str, *margins: str) -> None:
    Path(output).mkdir(parents=True, exist_ok=True)
    nlp = spacy.load(model)
    for margin in margins:
        value = float(margin)
        if value < 0:
            copy = spacy.load(model, exclude=["protein_gene"])
            copy.to_disk(Path(output) / "without")
            continue
        nlp.get_pipe("protein_gene").margin = value
        nlp.to_disk(Path(output) / f"margin_{value:g}")


if __name__ == "__main__":
    main(*sys.argv[1:])
