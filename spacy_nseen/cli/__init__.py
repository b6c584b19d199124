"""The `python -m spacy_nseen` command line (typer); each command lives in its own module."""
import typer

app = typer.Typer(no_args_is_help=True, help="spacy_nseen: NSEEN entity normalisation for spaCy")


@app.callback()
def main() -> None:
    """spacy_nseen: NSEEN entity normalisation for spaCy (commands below)."""
    # A callback keeps `annotate` a named sub-command even while it is the only command.
