"""The `python -m spacy_nseen` (or `spacy-nseen`) command line: one module per command in this package."""

import typer

from ..about import __version__

app = typer.Typer(
    name="spacy-nseen",
    help="spacy_nseen: link entity mentions to your own knowledge base (build-kb, train-encoder, ...).",
    no_args_is_help=True,
    add_completion=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"spacy-nseen {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print the version and exit"
    ),
) -> None:
    """spacy_nseen: link entity mentions to your own knowledge base (build-kb, train-encoder, annotate, ...)."""
