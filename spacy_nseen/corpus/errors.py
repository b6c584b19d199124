"""The error raised for a corpus or an output directory that cannot be used at all."""
from pathlib import Path
from typing import Union

from ..errors import NseenError


class CorpusError(NseenError):
    """An input corpus or an output directory cannot be used (missing, wrong format, other settings).

    path (Path): The file or directory.
    problem (str): What is wrong with it.
    fix (str): What the user can do about it.
    """

    def __init__(self, path: Union[str, Path], problem: str, fix: str) -> None:
        self.path = Path(path)
        self.problem = problem
        self.fix = fix
        super().__init__(f"{self.path}: {problem}. {fix}")
