"""Gene nomenclature aliases of mouse and rat proteins, the counterpart of HGNC's aliases for human.

Swiss-Prot lists few of the short names that papers use for rodent proteins: mouse `Sqstm1` (Q64337) has no
`p62`, mouse `Map1lc3a` has no `LC3`, while HGNC gives both to the human entries. A caption about mice then
links `p62` to the human protein. The nomenclature authorities list these names:

- mouse: NCBI Gene's `Synonyms` (`Mus_musculus.gene_info.gz`) and MGI's `synonyms` (`mgi_entries.tsv.gz`);
- rat: RGD's `synonyms` (`rgd_entries.tsv.gz`; the mirror has no rat gene_info).

An entry takes the aliases of the gene whose symbol equals its primary gene name, when exactly one gene of its
organism has that symbol; the aliases get the name kind `nomenclature_alias`. Bio-ID's gold is never a source.
"""
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Set, Tuple

from .gene_xrefs import GeneNames, _rows, _split

KIND = "nomenclature_alias"
MOUSE = 10090
RAT = 10116


def gene_info_aliases(path: Path, taxon: int) -> Dict[str, Set[str]]:
    """RETURNS (Dict[str, Set[str]]): symbol -> aliases (`Synonyms`) of the genes of `taxon` in a gene_info file;
    a symbol carried by several genes maps to nothing (ambiguous)."""
    aliases: Dict[str, Set[str]] = defaultdict(set)
    genes: Counter = Counter()
    for row in _rows(path, ("tax_id", "Symbol", "Synonyms")):
        if row["tax_id"].strip() != str(taxon):
            continue
        genes[row["Symbol"]] += 1
        aliases[row["Symbol"]].update(_split(row["Synonyms"], "|"))
    return {symbol: names for symbol, names in aliases.items() if genes[symbol] == 1}


def authority_aliases(path: Path, separators: str) -> Dict[str, Set[str]]:
    """RETURNS (Dict[str, Set[str]]): symbol -> synonyms of an MGI or RGD entries file (`ID`, `symbol`,
    `synonyms`); a symbol carried by several entries maps to nothing (ambiguous)."""
    aliases: Dict[str, Set[str]] = defaultdict(set)
    entries: Counter = Counter()
    for row in _rows(path, ("ID", "symbol", "synonyms")):
        entries[row["symbol"]] += 1
        aliases[row["symbol"]].update(_split(row["synonyms"], separators))
    return {symbol: names for symbol, names in aliases.items() if entries[symbol] == 1}


def merge(*tables: Mapping[str, Set[str]]) -> Dict[str, Set[str]]:
    """RETURNS (Dict[str, Set[str]]): the union of symbol -> aliases tables."""
    out: Dict[str, Set[str]] = defaultdict(set)
    for table in tables:
        for symbol, names in table.items():
            out[symbol].update(names)
    return dict(out)


def entry_aliases(entries: Mapping[str, GeneNames], by_taxon: Mapping[int, Mapping[str, Set[str]]]
                  ) -> Dict[str, List[str]]:
    """The aliases of each UniProt entry, through its primary gene name.

    entries (Mapping[str, GeneNames]): accession -> its taxon and gene names.
    by_taxon (Mapping[int, Mapping[str, Set[str]]]): taxon -> symbol -> aliases.
    RETURNS (Dict[str, List[str]]): accession -> sorted aliases (the gene symbol itself is not repeated).
    """
    out: Dict[str, List[str]] = {}
    for accession, entry in entries.items():
        table = by_taxon.get(entry.taxon)
        if not table or not entry.primary:
            continue
        names = table.get(entry.primary, set()) - {entry.primary}
        if names:
            out[accession] = sorted(names)
    return out


def read_alias_tables(mouse_gene_info: Optional[Path], mgi: Optional[Path], rgd: Optional[Path]
                      ) -> Dict[int, Dict[str, Set[str]]]:
    """RETURNS (Dict[int, Dict[str, Set[str]]]): taxon -> symbol -> aliases from the files that are given."""
    mouse = [t for t in (gene_info_aliases(mouse_gene_info, MOUSE) if mouse_gene_info else None,
                         authority_aliases(mgi, "|") if mgi else None) if t is not None]
    tables: Dict[int, Dict[str, Set[str]]] = {}
    if mouse:
        tables[MOUSE] = merge(*mouse)
    if rgd:
        tables[RAT] = authority_aliases(rgd, ";")
    return tables


def alias_rows(entries: Mapping[str, GeneNames], tables: Mapping[int, Mapping[str, Set[str]]]
               ) -> Iterable[Tuple[str, str, str]]:
    """RETURNS (Iterable[Tuple[str, str, str]]): (accession, alias, KIND) rows, in accession order."""
    aliases = entry_aliases(entries, tables)
    for accession in sorted(aliases):
        for name in aliases[accession]:
            yield accession, name, KIND
