"""The items a corpus reader yields: a text to annotate, or a bad record to report."""

from dataclasses import dataclass, field
from typing import Any, Dict, Union


@dataclass(frozen=True)
class TextRecord:
    """One text of a corpus.

    id (str): The record's id (from the input, or its position when the input has none).
    text (str): The text to annotate.
    meta (Dict[str, Any]): Other fields of the input record, written back unchanged (JSON-serialisable).
    """

    id: str
    text: str
    meta: Dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BadRecord:
    """A record that could not be read; it is reported and skipped, never silently dropped.

    position (str): Where it is, e.g. `corpus.jsonl:17` or `corpus.xml:3:5`.
    problem (str): What is wrong, e.g. `invalid JSON: Expecting value`.
    """

    position: str
    problem: str

    def to_dict(self) -> Dict[str, str]:
        """RETURNS (Dict[str, str]): The JSON form written to the bad-records report."""
        return {"position": self.position, "problem": self.problem}


CorpusItem = Union[TextRecord, BadRecord]
