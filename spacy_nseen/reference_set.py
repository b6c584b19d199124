"""A reference set: entities, each with an id and several names (NSEEN §3, "Problem Definition")."""
import gzip
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy

from .errors import ArtifactError

HEADER = ("kb_id", "name", "kind")


def open_text(path: Union[str, Path], mode: str = "rt"):
    """Open a UTF-8 text file, gzipped when its name ends in `.gz`."""
    path = Path(path)
    if path.suffix == ".gz":
        return gzip.open(path, mode, encoding="utf8", newline="")
    return open(path, mode, encoding="utf8", newline="")


@dataclass
class ReferenceSet:
    """Entities and their names, one row per distinct (kb_id, name).

    kb_ids (List[str]): the distinct entity ids (CURIEs), index = entity index.
    names (List[str]): one name per row.
    name_entity (numpy.ndarray): int32, the entity index of each row.
    kinds (List[str]): the kind of each name ("recommended", "synonym", ...; "" when unknown).
    """

    kb_ids: List[str]
    names: List[str]
    name_entity: numpy.ndarray
    kinds: List[str]
    _entity_index: Dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if len(self.names) != len(self.name_entity) or len(self.names) != len(self.kinds):
            raise ValueError("names, name_entity and kinds must have the same length")
        self._entity_index = {kb_id: i for i, kb_id in enumerate(self.kb_ids)}

    @classmethod
    def from_rows(cls, rows: Iterable[Tuple[str, str, str]]) -> "ReferenceSet":
        """Build from (kb_id, name, kind) rows; duplicate (kb_id, name) rows and empty names are dropped."""
        kb_ids: List[str] = []
        index: Dict[str, int] = {}
        names: List[str] = []
        entities: List[int] = []
        kinds: List[str] = []
        seen = set()
        for kb_id, name, kind in rows:
            name = name.strip()
            kb_id = kb_id.strip()
            if not name or not kb_id or (kb_id, name) in seen:
                continue
            seen.add((kb_id, name))
            if kb_id not in index:
                index[kb_id] = len(kb_ids)
                kb_ids.append(kb_id)
            names.append(name)
            entities.append(index[kb_id])
            kinds.append(kind)
        return cls(kb_ids, names, numpy.asarray(entities, dtype=numpy.int32), kinds)

    @classmethod
    def from_tsv(cls, path: Union[str, Path]) -> "ReferenceSet":
        """Read a `kb_id<TAB>name[<TAB>kind]` file with a header row (gzipped if it ends in .gz).

        Extra columns are ignored. A malformed row raises an ArtifactError naming the file and line.
        """
        path = Path(path)
        fix = "Write the reference set as UTF-8 TSV with a header 'kb_id<TAB>name<TAB>kind' (see the README)."
        if not path.exists():
            raise ArtifactError(path, "reference set file not found", fix)
        rows: List[Tuple[str, str, str]] = []
        try:
            with open_text(path) as file_:
                header = file_.readline().rstrip("\r\n").split("\t")
                if header[:2] != list(HEADER[:2]):
                    raise ArtifactError(path, f"first line is {header[:3]!r}, expected the header {list(HEADER)!r}", fix)
                for line_no, line in enumerate(file_, start=2):
                    line = line.rstrip("\r\n")
                    if not line:
                        continue
                    cols = line.split("\t")
                    if len(cols) < 2:
                        raise ArtifactError(path, f"line {line_no} has {len(cols)} column(s), expected at least 2", fix)
                    rows.append((cols[0], cols[1], cols[2] if len(cols) > 2 else ""))
        except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as err:
            raise ArtifactError(path, f"cannot be read ({err})", fix) from None
        reference = cls.from_rows(rows)
        if not reference.names:
            raise ArtifactError(path, "contains no names", fix)
        return reference

    def to_tsv(self, path: Union[str, Path]) -> None:
        """Write the set as TSV (gzipped if the path ends in .gz), header included."""
        with open_text(path, "wt") as file_:
            file_.write("\t".join(HEADER) + "\n")
            for name, entity, kind in zip(self.names, self.name_entity, self.kinds):
                file_.write(f"{self.kb_ids[entity]}\t{name}\t{kind}\n")

    def __len__(self) -> int:
        return len(self.names)

    @property
    def n_entities(self) -> int:
        return len(self.kb_ids)

    def entity_index(self, kb_id: str) -> Optional[int]:
        """RETURNS (Optional[int]): the index of an entity, or None if it is not in the set."""
        return self._entity_index.get(kb_id)

    def __contains__(self, kb_id: object) -> bool:
        return kb_id in self._entity_index

    def names_of(self, kb_id: str) -> List[str]:
        """RETURNS (List[str]): the names of one entity (empty if unknown)."""
        entity = self._entity_index.get(kb_id)
        if entity is None:
            return []
        return [self.names[i] for i in numpy.flatnonzero(self.name_entity == entity)]
