"""How the commands report an error: one line on stderr naming the file and what to do, exit status 1."""

from contextlib import contextmanager
from typing import Iterator

import typer

from ..errors import NseenError


@contextmanager
def reported_errors() -> Iterator[None]:
    """Turn a spacy_nseen error (a bad names file, a missing encoder file) into a one-line failure."""
    try:
        yield
    except NseenError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(1) from None
