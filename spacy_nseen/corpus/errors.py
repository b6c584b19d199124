"""The error raised for a corpus or an output directory that cannot be used at all."""

from ..errors import FileProblemError


class CorpusError(FileProblemError):
    """An input corpus or an output directory cannot be used (missing, wrong format, other settings).

    path (Path): The file or directory.
    problem (str): What is wrong with it.
    fix (str): What the user can do about it.
    """
