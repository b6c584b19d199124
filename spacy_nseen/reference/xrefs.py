"""Cross-references of a reference set's entities to other databases (e.g. UniProt → NCBI Gene).

A TSV `kb_id<TAB>xref` with a header row, one row per (entity, xref), the xref a CURIE such as
`NCBIGene:7157`; saved in a linker directory as `xrefs.tsv.gz` and written onto spans as `ent._.kb_xrefs`
(`{"NCBIGene": "7157"}`; several ids of one database are joined by `|`).
"""

from pathlib import Path
from typing import Dict, Iterable, Tuple, Union

from ..errors import ArtifactError
from .reference_set import open_text, tsv_rows

XREFS_FILE = "xrefs.tsv.gz"
HEADER = ("kb_id", "xref")
FIX = "Write the cross-references as UTF-8 TSV with the header 'kb_id<TAB>xref' (e.g. python -m training.data.gene_xrefs)."

Xrefs = Dict[str, Dict[str, str]]


def xrefs_from_rows(rows: Iterable[Tuple[str, str]]) -> Xrefs:
    """RETURNS (Xrefs): kb_id → {database: id(s)} from (kb_id, CURIE) rows; ids in first-seen order."""
    found: Dict[str, Dict[str, list]] = {}
    for kb_id, xref in rows:
        prefix, sep, local = xref.partition(":")
        if not sep or not prefix or not local:
            raise ValueError(f"{xref!r} is not a CURIE such as NCBIGene:7157")
        ids = found.setdefault(kb_id, {}).setdefault(prefix, [])
        if local not in ids:
            ids.append(local)
    return {kb_id: {db: "|".join(ids) for db, ids in dbs.items()} for kb_id, dbs in found.items()}


def read_xrefs(path: Union[str, Path]) -> Xrefs:
    """Read an xrefs TSV (gzipped if it ends in .gz); a bad file raises an ArtifactError naming it and the line."""
    path = Path(path)
    if not path.exists():
        raise ArtifactError(path, "cross-reference file not found", FIX)
    rows = []
    try:
        with open_text(path) as file_:
            found = tsv_rows(file_, path, HEADER, FIX)
            next(found)
            for _, cols in found:
                rows.append((cols[0].strip(), cols[1].strip()))
        return xrefs_from_rows(rows)
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise ArtifactError(path, f"cannot be read ({err})", FIX) from None
    except ValueError as err:
        raise ArtifactError(path, str(err), FIX) from None


def write_xrefs(xrefs: Xrefs, path: Union[str, Path]) -> None:
    """Write xrefs as TSV (gzipped if the path ends in .gz), one row per id."""
    with open_text(path, "wt") as file_:
        file_.write("\t".join(HEADER) + "\n")
        for kb_id in sorted(xrefs):
            for db, ids in sorted(xrefs[kb_id].items()):
                for local in ids.split("|"):
                    file_.write(f"{kb_id}\t{db}:{local}\n")
