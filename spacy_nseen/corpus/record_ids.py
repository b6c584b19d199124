"""The ids of a corpus's records: kept as given (a string stays a string, a number a number), checked for
duplicates. Policy: every record is annotated and written, duplicates too (`keep all`); the run warns and counts
them; with `--strict` (`strict=True`) a duplicate makes the run fail after it is written. A record without an id
gets its position (`corpus.jsonl:17`), and the run counts those too."""

import json
from typing import Dict, List, Union

RecordId = Union[str, int, float]
DUPLICATE_POLICY = "keep all (each is annotated and written; --strict: the run fails)"
EXAMPLES = 5


def id_key(record_id: RecordId) -> str:
    """RETURNS (str): a key telling `1` and `"1"` apart (JSON's)."""
    return json.dumps(record_id, ensure_ascii=False)


class IdCheck:
    """The duplicate and generated ids of one run over the whole corpus (resumed shards included)."""

    def __init__(self) -> None:
        self.seen: Dict[str, int] = {}
        self.duplicates = 0
        self.generated = 0
        self.examples: List[RecordId] = []

    def add(self, record_id: RecordId, generated: bool = False) -> None:
        """Count one record's id (`generated`: made from its position, the input had none)."""
        self.generated += int(generated)
        key = id_key(record_id)
        if key in self.seen:
            self.duplicates += 1
            if self.seen[key] == 1 and len(self.examples) < EXAMPLES:
                self.examples.append(record_id)
        self.seen[key] = self.seen.get(key, 0) + 1

    def summary(self) -> Dict[str, object]:
        """RETURNS (Dict[str, object]): the counts written to `summary.json`."""
        return {
            "duplicate_ids": self.duplicates,
            "duplicate_id_examples": list(self.examples),
            "duplicate_policy": DUPLICATE_POLICY,
            "generated_ids": self.generated,
        }
