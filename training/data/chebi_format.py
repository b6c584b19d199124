"""Parser for the official ChEBI flat files (`Flat_file_tab_delimited/`).

Column layouts (tab-separated, header row, `null` for missing values):

- `compounds.tsv(.gz)`: ID, STATUS, CHEBI_ACCESSION, SOURCE, PARENT_ID, NAME,
  DEFINITION, MODIFIED_ON, CREATED_BY, STAR. A row whose PARENT_ID is set is a
  secondary id of the compound with ID = PARENT_ID.
- `names.tsv(.gz)`: ID, COMPOUND_ID, NAME, TYPE, SOURCE, ADAPTED, LANGUAGE.
  TYPE is SYNONYM, IUPAC NAME, INN or BRAND NAME; COMPOUND_ID may be a secondary id.
- `relation.tsv(.gz)`: ID, TYPE, INIT_ID, FINAL_ID, STATUS, with numeric ids.
  An `is_a` row is read as "FINAL_ID is_a INIT_ID" (child in FINAL_ID, the
  orientation used by libChEBI's parser); pass `child_column="INIT_ID"` to
  read it the other way.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple, Union

from training.common.data_errors import DataFileError
from training.common.tsv_io import iter_tsv

PathLike = Union[str, Path]
NULL = {"", "null", "NULL", "None"}


@dataclass
class ChebiEntity:
    """One primary ChEBI entity.

    chebi_id (str): The CURIE, e.g. "CHEBI:15377".
    names (List[Tuple[str, str]]): (name, kind); kinds primary, synonym,
        iupac_name, inn, brand_name.
    star (Optional[int]): The star level (1-3), if given.
    parents (List[str]): CURIEs of its `is_a` parents.
    """

    chebi_id: str
    names: List[Tuple[str, str]] = field(default_factory=list)
    star: Optional[int] = None
    parents: List[str] = field(default_factory=list)


@dataclass
class ChebiData:
    """The entities of a ChEBI release and its secondary-id map.

    entities (Dict[str, ChebiEntity]): Primary CURIE -> entity.
    secondary_to_primary (Dict[str, str]): Secondary CURIE -> primary CURIE.
    n_unknown_names (int): Names whose compound is unknown (skipped).
    """

    entities: Dict[str, ChebiEntity] = field(default_factory=dict)
    secondary_to_primary: Dict[str, str] = field(default_factory=dict)
    n_unknown_names: int = 0


def _curie(value: str) -> str:
    value = value.strip()
    return value if value.startswith("CHEBI:") else f"CHEBI:{value}"


def read_chebi_flat_files(
    compounds: PathLike,
    names: PathLike,
    relation: Optional[PathLike] = None,
    *,
    child_column: str = "FINAL_ID",
) -> ChebiData:
    """Read the ChEBI compounds, names and (optionally) relation files.

    compounds (PathLike): `compounds.tsv(.gz)`.
    names (PathLike): `names.tsv(.gz)`.
    relation (Optional[PathLike]): `relation.tsv(.gz)`, for `is_a` parents.
    child_column (str): The relation column holding the child of an `is_a` row.
    RETURNS (ChebiData): The entities with names, stars and parents.
    """
    if child_column not in ("INIT_ID", "FINAL_ID"):
        raise ValueError(f"child_column must be INIT_ID or FINAL_ID, not {child_column!r}")
    data = ChebiData()
    numeric_to_curie: Dict[str, str] = {}
    secondary_parent: List[Tuple[str, str]] = []  # (secondary curie, parent numeric id)
    compound_cols = ("ID", "CHEBI_ACCESSION", "PARENT_ID", "NAME")
    for row in iter_tsv(compounds, compound_cols):
        curie = _curie(row["CHEBI_ACCESSION"] or row["ID"])
        numeric_to_curie[row["ID"].strip()] = curie
        parent = row["PARENT_ID"].strip()
        if parent not in NULL:
            secondary_parent.append((curie, parent))
            continue
        entity = data.entities.setdefault(curie, ChebiEntity(curie))
        if row["NAME"].strip() not in NULL:
            entity.names.append((row["NAME"], "primary"))
        star = row.get("STAR", "").strip()
        if star.isdigit():
            entity.star = int(star)
    if not data.entities:
        raise DataFileError(compounds, "no primary compounds found", "Is this ChEBI's compounds.tsv?")
    for secondary, parent in secondary_parent:
        primary = numeric_to_curie.get(parent)
        if primary is not None and primary in data.entities:
            data.secondary_to_primary[secondary] = primary
    for row in iter_tsv(names, ("COMPOUND_ID", "NAME", "TYPE")):
        curie = numeric_to_curie.get(row["COMPOUND_ID"].strip(), _curie(row["COMPOUND_ID"]))
        curie = data.secondary_to_primary.get(curie, curie)
        entity = data.entities.get(curie)
        if entity is None or row["NAME"].strip() in NULL:
            data.n_unknown_names += 1
            continue
        kind = row["TYPE"].strip().lower().replace(" ", "_") or "synonym"
        entity.names.append((row["NAME"], kind))
    if relation is not None:
        parent_column = "INIT_ID" if child_column == "FINAL_ID" else "FINAL_ID"
        for row in iter_tsv(relation, ("TYPE", "INIT_ID", "FINAL_ID")):
            if row["TYPE"].strip() != "is_a":
                continue
            child = _primary(data, numeric_to_curie, row[child_column])
            parent = _primary(data, numeric_to_curie, row[parent_column])
            if child in data.entities and parent in data.entities and parent != child:
                if parent not in data.entities[child].parents:
                    data.entities[child].parents.append(parent)
    return data


def _primary(data: ChebiData, numeric_to_curie: Dict[str, str], value: str) -> str:
    curie = numeric_to_curie.get(value.strip(), _curie(value))
    return data.secondary_to_primary.get(curie, curie)


def siblings(entities: Dict[str, ChebiEntity]) -> Dict[str, Set[str]]:
    """Group entities by `is_a` parent.

    entities (Dict[str, ChebiEntity]): The entities.
    RETURNS (Dict[str, Set[str]]): parent CURIE -> children CURIEs.
    """
    out: Dict[str, Set[str]] = {}
    for entity in entities.values():
        for parent in entity.parents:
            out.setdefault(parent, set()).add(entity.chebi_id)
    return out
