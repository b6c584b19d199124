"""Exceptions raised by spacy_nseen, each naming the file and what to do."""
from pathlib import Path
from typing import Union


class NseenError(Exception):
    """Base class of every error spacy_nseen raises on purpose."""


class ArtifactError(NseenError):
    """A file written by spacy_nseen is missing, truncated, corrupt or from another version."""

    def __init__(self, path: Union[str, Path], problem: str, fix: str) -> None:
        self.path = Path(path)
        self.problem = problem
        self.fix = fix
        super().__init__(f"{self.path}: {problem}. {fix}")


class NotInitializedError(NseenError):
    """The component was used before `nlp.initialize()` or loading trained artifacts."""
