"""The error raised for missing, truncated or malformed input data files."""
from pathlib import Path
from typing import Any, Callable, Union

import typer
from wasabi import msg

from spacy_nseen.errors import FileProblemError


class DataFileError(Exception):
    """An input data file is missing, truncated, corrupt or not in the expected format.

    path (Path): The file.
    problem (str): What is wrong with it.
    fix (str): What the user can do about it.
    """

    def __init__(self, path: Union[str, Path], problem: str, fix: str) -> None:
        self.path = Path(path)
        self.problem = problem
        self.fix = fix
        super().__init__(f"{self.path}: {problem}. {fix}")


class DownloadError(DataFileError):
    """A download failed (network error, truncated transfer or checksum mismatch)."""


def run_cli(command: Callable[..., Any]) -> None:
    """Run a typer command; report a `DataFileError` or a `spacy_nseen` `FileProblemError` (an artifact that is
    missing, truncated or from another version) as a one-line failure, exit 1.

    command (Callable[..., Any]): The typer command function.
    """
    try:
        typer.run(command)
    except (DataFileError, FileProblemError) as err:
        msg.fail(str(err), exits=1)
