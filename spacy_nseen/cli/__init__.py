"""The `python -m spacy_nseen` (or `spacy-nseen`) command line: one module per command in this package."""

import typer

app = typer.Typer(
    name="spacy-nseen",
    help="spacy_nseen: link entity mentions to your own knowledge base (build-kb, train-encoder, ...).",
    no_args_is_help=True,
    add_completion=False,
)
