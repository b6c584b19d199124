"""Exceptions raised by spacy_nseen, each naming the file and what to do."""

from pathlib import Path
from typing import Union


class NseenError(Exception):
    """Base class of every error spacy_nseen raises on purpose."""


class FileProblemError(NseenError):
    """A file or directory that cannot be used; the message names it, what is wrong and what to do.

    path (Path): The file or directory.
    problem (str): What is wrong with it.
    fix (str): What the user can do about it.
    """

    def __init__(self, path: Union[str, Path], problem: str, fix: str) -> None:
        self.path = Path(path)
        self.problem = problem
        self.fix = fix
        super().__init__(f"{self.path}: {problem}. {fix}")


class ArtifactError(FileProblemError):
    """A file written by spacy_nseen is missing, truncated, corrupt or from another version."""


class NotInitializedError(NseenError):
    """The component was used before `nlp.initialize()` or loading trained artifacts."""
