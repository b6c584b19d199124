"""The items a corpus reader yields: a text to annotate, or a bad record to report."""

from dataclasses import dataclass, field
from typing import Any, Dict, Union

from .record_ids import RecordId


@dataclass(frozen=True)
class TextRecord:
    """One text of a corpus.

    id (RecordId): The record's id as the input gives it (a JSON number stays a number), or its position
        (`corpus.jsonl:17`) when the input has none.
    text (str): The text to annotate.
    meta (Dict[str, Any]): Other fields of the input record, written back unchanged (JSON-serialisable).
    generated_id (bool): The id is the record's position (the input had none).
    """

    id: RecordId
    text: str
    meta: Dict[str, Any] = field(default_factory=dict)
    generated_id: bool = False


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
