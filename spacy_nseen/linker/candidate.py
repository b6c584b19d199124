"""What a linker returns for a mention: its candidate entities, best first."""

from typing import NamedTuple


class Candidate(NamedTuple):
    """One linked entity: its id, the best-matching reference name and a score (higher is better)."""

    kb_id: str
    name: str
    score: float
