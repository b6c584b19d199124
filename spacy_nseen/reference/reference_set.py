"""A reference set: entities, each with an id and several names (NSEEN §3, "Problem Definition")."""

import gzip
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, TextIO, Tuple, Union

import numpy

from ..errors import ArtifactError
from ..text.lines import TextLines

HEADER = ("kb_id", "name", "kind")
TAXON_COLUMN = "taxon"
# The kind of a name a curator accepted from a synonym review file (`linker.added_names`, `synonyms.review_file`).
DISCOVERED_KIND = "discovered"


def open_text(path: Union[str, Path], mode: str = "rt"):
    """Open a UTF-8 text file, gzipped when its name ends in `.gz`."""
    path = Path(path)
    if path.suffix == ".gz":
        return gzip.open(path, mode, encoding="utf8", newline="")
    return open(path, mode, encoding="utf8", newline="")


def tsv_rows(
    file_: TextIO, path: Path, header: Sequence[str], fix: str, min_columns: int = 2
) -> Iterator[Tuple[int, List[str]]]:
    """The rows of an open TSV file with a header: first `(1, the header's columns)`, then `(line number,
    columns)` of every non-blank line. The header must start with `header[:min_columns]` and every row have
    `min_columns` columns; else an ArtifactError names the file, the line and `fix`.
    """
    columns = file_.readline().rstrip("\r\n").split("\t")
    if columns[:min_columns] != list(header[:min_columns]):
        raise ArtifactError(
            path, f"first line is {columns[: len(header)]!r}, expected the header {list(header)!r}", fix
        )
    yield 1, columns
    for line_no, line in enumerate(file_, start=2):
        line = line.rstrip("\r\n")
        if not line:
            continue
        cols = line.split("\t")
        if len(cols) < min_columns:
            raise ArtifactError(path, f"line {line_no} has {len(cols)} column(s), expected at least {min_columns}", fix)
        yield line_no, cols


@dataclass
class ReferenceSet:
    """Entities and their names, one row per distinct (kb_id, name).

    kb_ids (Sequence[str]): the distinct entity ids (CURIEs), index = entity index.
    names (Sequence[str]): one name per row.
    Both are lists when the set is read from rows or TSV, and `TextLines` (UTF-8 bytes, decoded when read)
    when it comes from `from_arrays`, as a saved linker's set does.
    name_entity (numpy.ndarray): int32, the entity index of each row.
    kinds (List[str]): the kind of each name ("recommended", "synonym", ...; "" when unknown).
    entity_taxa (Optional[numpy.ndarray]): int32, the NCBI taxon id of each entity (0 = unknown), for
        reference sets of several organisms; None when the set has no taxon column.
    """

    kb_ids: Sequence[str]
    names: Sequence[str]
    name_entity: numpy.ndarray
    kinds: List[str]
    entity_taxa: Optional[numpy.ndarray] = None
    _entity_index: Dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.names) != len(self.name_entity) or len(self.names) != len(self.kinds):
            raise ValueError("names, name_entity and kinds must have the same length")
        if self.entity_taxa is not None:
            self.entity_taxa = numpy.asarray(self.entity_taxa, dtype=numpy.int32)
            if len(self.entity_taxa) != len(self.kb_ids):
                raise ValueError(f"{len(self.kb_ids)} entities but {len(self.entity_taxa)} taxon ids")
        self._entity_index = {}  # built on first use (linking never needs it; loading stays fast)

    def _entities(self) -> Dict[str, int]:
        if len(self._entity_index) != len(self.kb_ids):
            self._entity_index = {kb_id: i for i, kb_id in enumerate(self.kb_ids)}
        return self._entity_index

    @classmethod
    def from_rows(cls, rows: Iterable[Tuple[str, str, str]], taxa: Optional[Dict[str, int]] = None) -> "ReferenceSet":
        """Build from (kb_id, name, kind) rows; duplicate (kb_id, name) rows and empty names are dropped.

        taxa (Optional[Dict[str, int]]): kb_id → NCBI taxon id, for a set of several organisms (missing: 0).
        """
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
        entity_taxa = None if taxa is None else numpy.asarray([taxa.get(k, 0) for k in kb_ids], dtype=numpy.int32)
        return cls(kb_ids, names, numpy.asarray(entities, dtype=numpy.int32), kinds, entity_taxa)

    @classmethod
    def from_tsv(cls, path: Union[str, Path]) -> "ReferenceSet":
        """Read a `kb_id<TAB>name[<TAB>kind]` file with a header row (gzipped if it ends in .gz).

        A column headed `taxon` gives each entity's NCBI taxon id (multi-organism sets); other extra columns
        are ignored. A malformed row raises an ArtifactError naming the file and line.
        """
        path = Path(path)
        fix = "Write the reference set as UTF-8 TSV with a header 'kb_id<TAB>name<TAB>kind' (see the README)."
        if not path.exists():
            raise ArtifactError(path, "reference set file not found", fix)
        rows: List[Tuple[str, str, str]] = []
        taxa: Optional[Dict[str, int]] = None
        try:
            with open_text(path) as file_:
                found = tsv_rows(file_, path, HEADER, fix)
                _, header = next(found)
                taxon_col = header.index(TAXON_COLUMN) if TAXON_COLUMN in header else None
                if taxon_col is not None:
                    taxa = {}
                for line_no, cols in found:
                    rows.append((cols[0], cols[1], cols[2] if len(cols) > 2 else ""))
                    if taxa is not None and taxon_col is not None and len(cols) > taxon_col and cols[taxon_col].strip():
                        try:
                            taxa[cols[0].strip()] = int(cols[taxon_col])
                        except ValueError:
                            raise ArtifactError(
                                path, f"line {line_no}: taxon {cols[taxon_col]!r} is not an NCBI taxon id", fix
                            ) from None
        except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as err:
            raise ArtifactError(path, f"cannot be read ({err})", fix) from None
        reference = cls.from_rows(rows, taxa)
        if not len(reference.names):
            raise ArtifactError(path, "contains no names", fix)
        return reference

    def to_tsv(self, path: Union[str, Path]) -> None:
        """Write the set as TSV (gzipped if the path ends in .gz), header included."""
        taxa = self.entity_taxa
        with open_text(path, "wt") as file_:
            file_.write("\t".join(HEADER + ((TAXON_COLUMN,) if taxa is not None else ())) + "\n")
            for name, entity, kind in zip(self.names, self.name_entity, self.kinds):
                taxon = f"\t{taxa[entity] or ''}" if taxa is not None else ""
                file_.write(f"{self.kb_ids[entity]}\t{name}\t{kind}{taxon}\n")

    def to_arrays(self) -> Dict[str, numpy.ndarray]:
        """RETURNS (Dict[str, numpy.ndarray]): the set as flat arrays (UTF-8 text joined by line breaks),
        which `from_arrays` turns back into a ReferenceSet much faster than `from_tsv` parses a file."""
        kind_names = sorted(set(self.kinds))
        kind_codes = {kind: i for i, kind in enumerate(kind_names)}
        arrays = {
            "kb_ids": _utf8_lines(self.kb_ids),
            "names": _utf8_lines(self.names),
            "name_entity": numpy.asarray(self.name_entity, dtype=numpy.int32),
            "kind_names": _utf8("\n".join(kind_names)),
            "kind_codes": numpy.asarray([kind_codes[kind] for kind in self.kinds], dtype=numpy.int32),
        }
        if self.entity_taxa is not None:
            arrays["entity_taxa"] = numpy.asarray(self.entity_taxa, dtype=numpy.int32)
        return arrays

    @classmethod
    def from_arrays(cls, arrays: Dict[str, numpy.ndarray]) -> "ReferenceSet":
        """Rebuild a set from `to_arrays`, names and ids as `TextLines` over the given (e.g. memory-mapped)
        bytes. Raises ValueError when the arrays disagree in length."""
        kb_ids = TextLines(numpy.asarray(arrays["kb_ids"], dtype=numpy.uint8))
        names = TextLines(numpy.asarray(arrays["names"], dtype=numpy.uint8))
        kb_ids.check_utf8()
        names.check_utf8()
        kind_names = numpy.asarray(_text(arrays["kind_names"]).split("\n"), dtype=object)
        codes = numpy.asarray(arrays["kind_codes"])
        name_entity = numpy.array(arrays["name_entity"], dtype=numpy.int32)
        if len(codes) != len(names) or len(name_entity) != len(names):
            raise ValueError(f"{len(names)} names, {len(codes)} kinds and {len(name_entity)} entity indices")
        if len(names) and (int(name_entity.min()) < 0 or int(name_entity.max()) >= len(kb_ids)):
            raise ValueError("entity indices out of range")
        taxa = arrays.get("entity_taxa")
        if taxa is not None and len(taxa) != len(kb_ids):
            raise ValueError(f"{len(kb_ids)} entities but {len(taxa)} taxon ids")
        return cls(
            kb_ids,
            names,
            name_entity,
            kind_names[codes].tolist(),
            None if taxa is None else numpy.array(taxa, dtype=numpy.int32),
        )

    def with_names(self, entities: Sequence[int], names: Sequence[str], kinds: Sequence[str]) -> "ReferenceSet":
        """RETURNS (ReferenceSet): this set's names, then `names` of the existing `entities` with their `kinds`
        (same entities, ids and taxa; the caller checks for duplicates). ValueError for a line break in a name."""
        if not len(entities) == len(names) == len(kinds):
            raise ValueError(f"{len(entities)} entities, {len(names)} names and {len(kinds)} kinds")
        if len(entities) and (min(entities) < 0 or max(entities) >= self.n_entities):
            raise ValueError("entity indices out of range")
        added = TextLines.from_strings(list(names)) if len(names) else None
        all_names: Sequence[str]
        if added is None:
            all_names = self.names
        elif isinstance(self.names, TextLines) and len(self.names):
            all_names = TextLines(numpy.concatenate([self.names.utf8, numpy.asarray([10], numpy.uint8), added.utf8]))
        else:
            all_names = list(self.names) + list(names)
        return ReferenceSet(
            self.kb_ids,
            all_names,
            numpy.concatenate(
                [numpy.asarray(self.name_entity, dtype=numpy.int32), numpy.asarray(entities, numpy.int32)]
            ),
            list(self.kinds) + list(kinds),
            self.entity_taxa,
        )

    def __len__(self) -> int:
        return len(self.names)

    @property
    def n_entities(self) -> int:
        return len(self.kb_ids)

    @property
    def taxa(self) -> List[int]:
        """RETURNS (List[int]): the distinct NCBI taxon ids of the entities (empty for a single-organism set)."""
        return [] if self.entity_taxa is None else sorted(int(t) for t in numpy.unique(self.entity_taxa) if t)

    def taxon_of(self, kb_id: str) -> Optional[int]:
        """RETURNS (Optional[int]): the NCBI taxon id of an entity, or None if unknown."""
        entity = self._entities().get(kb_id)
        if entity is None or self.entity_taxa is None or not self.entity_taxa[entity]:
            return None
        return int(self.entity_taxa[entity])

    def entity_index(self, kb_id: str) -> Optional[int]:
        """RETURNS (Optional[int]): the index of an entity, or None if it is not in the set."""
        return self._entities().get(kb_id)

    def __contains__(self, kb_id: object) -> bool:
        return kb_id in self._entities()

    def names_of(self, kb_id: str) -> List[str]:
        """RETURNS (List[str]): the names of one entity (empty if unknown)."""
        entity = self._entities().get(kb_id)
        if entity is None:
            return []
        return [self.names[i] for i in numpy.flatnonzero(self.name_entity == entity).tolist()]


def _utf8(text: str) -> numpy.ndarray:
    return numpy.frombuffer(text.encode("utf8", "surrogatepass"), dtype=numpy.uint8)


def _text(array: numpy.ndarray) -> str:
    return numpy.asarray(array, dtype=numpy.uint8).tobytes().decode("utf8", "surrogatepass")


def _utf8_lines(strings: Sequence[str]) -> numpy.ndarray:
    if isinstance(strings, TextLines):
        return strings.utf8
    try:
        return TextLines.from_strings(strings).utf8
    except ValueError as err:
        raise ValueError(f"names and kb_ids: {err}") from None
