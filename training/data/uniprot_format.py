"""Parser for UniProtKB TSV exports (the REST `format=tsv` download).

`Protein names` holds the recommended name, then each alternative or short name
in parentheses, then `[Cleaved into: ...]` and `[Includes: ...]` blocks whose
`;`-separated parts are written the same way:

    Angiotensinogen (Serpin A8) [Cleaved into: Angiotensin-1 (Angiotensin I); Angiotensin 1-9]

Names can themselves contain parentheses and brackets (`Ca(2+)-ATPase`,
`[Pyruvate dehydrogenase (acetyl-transferring)] kinase`), so the string is
scanned with a depth counter: only a top-level `(...)` preceded by a space and
followed by another such group or the end is an alternative name, and only a
top-level `[` that opens `Cleaved into:` / `Includes:` starts a block.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterator, List, Tuple, Union

from training.common.data_errors import DataFileError
from training.common.tsv_io import iter_tsv

if TYPE_CHECKING:
    from .reference_rows import ReferenceRows

PathLike = Union[str, Path]
BLOCK_PREFIXES = {"Cleaved into:": "component", "Includes:": "component"}
# Parenthesised names that are not names of the protein, or need a prefix removed.
EC_PREFIX = "EC "
CD_ANTIGEN_PREFIX = "CD antigen "
ALLERGEN_PREFIX = "allergen "
# Header aliases: the REST API and older exports spell some columns differently.
HEADER_MAP = {
    "Entry Name": "Entry name",
    "Gene Names": "Gene names",
    "Reviewed": "Status",
    "Protein families": "Protein families",
}


@dataclass
class UniProtEntry:
    """One UniProtKB entry with its names.

    accession (str): The primary accession, e.g. "P31946".
    names (List[Tuple[str, str]]): (name, kind) in entry order; kinds are
        recommended, alternative, component, cd_antigen, allergen, gene_primary,
        gene_synonym, entry_mnemonic.
    ec_numbers (List[str]): EC numbers found in `Protein names` (not names).
    families (List[str]): UniProt protein families (`Protein families` column).
    """

    accession: str
    names: List[Tuple[str, str]] = field(default_factory=list)
    ec_numbers: List[str] = field(default_factory=list)
    families: List[str] = field(default_factory=list)


def _split_top_level(text: str, sep: str) -> List[str]:
    """Split `text` on `sep` where it is outside any parentheses or brackets."""
    parts: List[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(text):
        char = text[i]
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
            i = start
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _extract_blocks(text: str) -> Tuple[str, List[Tuple[str, str]]]:
    """Remove top-level `[Cleaved into: ...]` / `[Includes: ...]` blocks.

    RETURNS (Tuple[str, List[Tuple[str, str]]]): The remaining text and
        (kind, block content) pairs.
    """
    blocks: List[Tuple[str, str]] = []
    rest: List[str] = []
    depth = 0
    i = 0
    while i < len(text):
        char = text[i]
        if char == "[" and depth == 0:
            kind = next(
                (k for prefix, k in BLOCK_PREFIXES.items() if text.startswith(prefix, i + 1)),
                None,
            )
            if kind is not None:
                prefix = next(p for p in BLOCK_PREFIXES if text.startswith(p, i + 1))
                end = _matching_close(text, i)
                blocks.append((kind, text[i + 1 + len(prefix) : end].strip()))
                i = end + 1
                continue
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        rest.append(char)
        i += 1
    return "".join(rest).strip(), blocks


def _matching_close(text: str, open_at: int) -> int:
    """Index of the bracket closing the one at `open_at` (or the end of text)."""
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] in "([":
            depth += 1
        elif text[i] in ")]":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def split_name_and_alternatives(text: str) -> Tuple[str, List[str]]:
    """Split `Name (Alt 1) (Alt 2)` into the name and its parenthesised alternatives.

    Alternatives are the maximal run of top-level ` (...)` groups that ends the
    string; parentheses inside a name (`Ca(2+)`, `(E3-independent) E2 enzyme`)
    stay in the name.

    text (str): One name with its alternatives (no `[...]` blocks).
    RETURNS (Tuple[str, List[str]]): The name and the alternatives, in order.
    """
    text = text.strip()
    alternatives: List[str] = []
    end = len(text)
    while end > 0 and text[end - 1] == ")":
        # find the "(" matching the ")" at end - 1
        depth = 0
        start = -1
        for i in range(end - 1, -1, -1):
            if text[i] == ")":
                depth += 1
            elif text[i] == "(":
                depth -= 1
                if depth == 0:
                    start = i
                    break
        if start <= 0 or text[start - 1] != " ":
            break  # unbalanced, or a group glued to the name like `Ca(2+)`
        alternatives.append(text[start + 1 : end - 1].strip())
        end = start - 1
        while end > 0 and text[end - 1] == " ":
            end -= 1
    alternatives.reverse()
    return text[:end].strip(), alternatives


def _classify(name: str, default_kind: str) -> Tuple[str, str]:
    """Map a parenthesised name to (name, kind), removing known prefixes."""
    if name.startswith(EC_PREFIX) and name[len(EC_PREFIX) : len(EC_PREFIX) + 1].isdigit():
        return name[len(EC_PREFIX) :], "ec_number"
    if name.startswith(CD_ANTIGEN_PREFIX):
        return name[len(CD_ANTIGEN_PREFIX) :], "cd_antigen"
    if name.startswith(ALLERGEN_PREFIX):
        return name[len(ALLERGEN_PREFIX) :], "allergen"
    return name, default_kind


def split_protein_names(text: str) -> List[Tuple[str, str]]:
    """Split a UniProt `Protein names` cell into (name, kind) pairs.

    Kinds: recommended, alternative, component (names inside `[Cleaved into: ...]`
    and `[Includes: ...]`), ec_number, cd_antigen, allergen.

    text (str): The cell, e.g. "Angiotensinogen (Serpin A8) [Cleaved into: Angiotensin-1]".
    RETURNS (List[Tuple[str, str]]): The names in order, with their kinds.
    """
    main, blocks = _extract_blocks(text.strip())
    out: List[Tuple[str, str]] = []
    name, alternatives = split_name_and_alternatives(main)
    if name:
        out.append((name, "recommended"))
    out.extend(_classify(alt, "alternative") for alt in alternatives)
    for kind, content in blocks:
        for part in _split_top_level(content, ";"):
            part_name, part_alts = split_name_and_alternatives(part)
            if part_name:
                out.append((part_name, kind))
            out.extend(_classify(alt, kind) for alt in part_alts)
    return [(n.strip(), k) for n, k in out if n.strip()]


def split_gene_names(text: str) -> List[Tuple[str, str]]:
    """Split a UniProt `Gene names` cell into (name, kind) pairs.

    Genes are separated by `; `; within a gene, the first name is the primary
    name and the others (synonyms, ORF names) are separated by spaces.

    text (str): The cell, e.g. "ACKR4 CCBP2 CCR11".
    RETURNS (List[Tuple[str, str]]): Kinds gene_primary and gene_synonym.
    """
    out: List[Tuple[str, str]] = []
    for gene in text.split(";"):
        tokens = gene.split()
        for i, token in enumerate(tokens):
            out.append((token, "gene_primary" if i == 0 else "gene_synonym"))
    return out


def read_uniprot_tsv(
    path: PathLike, *, include_ec: bool = False, include_mnemonic: bool = True
) -> Iterator[UniProtEntry]:
    """Read a UniProtKB TSV export (REST `format=tsv`), one entry at a time.

    Required columns: `Entry`, `Protein names`; optional: `Entry name`,
    `Gene names`, `Protein families`.

    path (PathLike): The file (`.gz` for gzip).
    include_ec (bool): Keep EC numbers as names (kind ec_number); the paper's
        reference set has none.
    include_mnemonic (bool): Add the entry mnemonic without `_HUMAN` (kind entry_mnemonic).
    YIELDS (UniProtEntry): The entries.
    """
    for row in iter_tsv(path, ("Entry", "Protein names"), header_map=HEADER_MAP):
        accession = row["Entry"].strip()
        if not accession:
            raise DataFileError(path, "a row has an empty `Entry` cell", "Check the export")
        entry = UniProtEntry(accession)
        for name, kind in split_protein_names(row["Protein names"]):
            if kind == "ec_number":
                entry.ec_numbers.append(name)
                if not include_ec:
                    continue
            entry.names.append((name, kind))
        entry.names.extend(split_gene_names(row.get("Gene names", "")))
        mnemonic = row.get("Entry name", "").strip()
        if include_mnemonic and mnemonic:
            entry.names.append((mnemonic.rsplit("_", 1)[0], "entry_mnemonic"))
        families = row.get("Protein families", "").strip()
        if families:
            entry.families = [f.strip() for f in families.split(";") if f.strip()]
        yield entry


def read_hgnc_approved(path: PathLike) -> Dict[str, str]:
    """Read the HGNC approved symbol of each UniProt accession that belongs to exactly one HGNC gene.

    path (PathLike): The HGNC TSV file (`Approved symbol`, `UniProt ID(supplied by UniProt)`).
    RETURNS (Dict[str, str]): accession -> approved symbol (accessions of several genes are left out: the
        symbol would not name the protein).
    """
    uniprot_col = "UniProt ID(supplied by UniProt)"
    symbols: Dict[str, set] = {}
    for row in iter_tsv(path, ("Approved symbol", uniprot_col)):
        symbol = row["Approved symbol"].strip()
        if not symbol or row.get("Status", "Approved").strip() not in ("", "Approved"):
            continue
        for accession in (a.strip() for a in row[uniprot_col].split(",")):
            if accession:
                symbols.setdefault(accession, set()).add(symbol)
    return {acc: next(iter(s)) for acc, s in symbols.items() if len(s) == 1}


def add_approved_symbols(rows: "ReferenceRows", approved: Dict[str, str], prefix: str = "UniProt:") -> Dict[str, int]:
    """Give every entity without a gene symbol (`gene_primary` row) its HGNC approved symbol as one.

    The human names lack a gene symbol for some well-known proteins (`APP` is only an alternative name of
    P05067): the ortholog table (`spacy_nseen.organisms.orthologs`) and the exact tier need one. An existing row
    with the symbol becomes `gene_primary` unless it is a recommended name; otherwise a row is added.

    rows (ReferenceRows): The rows (changed in place). approved (Dict[str, str]): `read_hgnc_approved`.
    prefix (str): The CURIE prefix of the rows' accessions.
    RETURNS (Dict[str, int]): how many symbols were added and how many existing rows became `gene_primary`.
    """
    with_symbol = {kb_id for kb_id, _, kind in rows.rows if kind == "gene_primary"}
    added = promoted = 0
    for kb_id in rows.entity_ids():
        symbol = approved.get(kb_id[len(prefix):]) if kb_id.startswith(prefix) else None
        if kb_id in with_symbol or not symbol:
            continue
        kind = rows.kind_of(kb_id, symbol)
        if kind is None:
            added += rows.add(kb_id, symbol, "gene_primary")
        elif kind not in ("recommended", "primary"):
            rows.set_kind(kb_id, symbol, "gene_primary")
            promoted += 1
    return {"added": added, "promoted": promoted}


def read_hgnc_synonyms(path: PathLike) -> Dict[str, List[Tuple[str, str]]]:
    """Read HGNC alias and previous symbols per UniProt accession.

    Accepts the HGNC custom download (`Alias symbols`, `Previous symbols`,
    `UniProt ID(supplied by UniProt)`, values separated by `, `).

    path (PathLike): The HGNC TSV file.
    RETURNS (Dict[str, List[Tuple[str, str]]]): accession -> (symbol, kind), kinds
        hgnc_alias and hgnc_previous.
    """
    uniprot_col = "UniProt ID(supplied by UniProt)"
    out: Dict[str, List[Tuple[str, str]]] = {}
    for row in iter_tsv(path, ("Alias symbols", "Previous symbols", uniprot_col)):
        accessions = [a.strip() for a in row[uniprot_col].split(",") if a.strip()]
        if not accessions:
            continue
        symbols = [(s.strip(), "hgnc_alias") for s in row["Alias symbols"].split(",")]
        symbols += [(s.strip(), "hgnc_previous") for s in row["Previous symbols"].split(",")]
        symbols = [(s, k) for s, k in symbols if s]
        for accession in accessions:
            out.setdefault(accession, []).extend(symbols)
    return out
