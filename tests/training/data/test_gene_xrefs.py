import gzip
import json
from pathlib import Path

import pytest

from training.common.bioid_scoring import EquivalenceClasses
from training.data.gene_xrefs import (
    GeneIndex,
    GeneNames,
    GeneSourceError,
    build_xrefs,
    check_against_classes,
    gene_xrefs,
    map_by_symbol,
    read_gene_names,
    read_hgnc,
    read_mgi_symbols,
)

FIX = Path(__file__).parents[2] / "fixtures" / "gene_xrefs"


def test_hgnc_accessions_and_genes():
    hgnc = read_hgnc(FIX / "hgnc.tsv")
    assert hgnc["P04637"] == {"7157"} and hgnc["P01258"] == hgnc["P06881"] == {"796"}  # "P01258, P06881"


def test_gene_names_of_every_accession():
    other = read_gene_names(FIX / "other_names.tsv")
    assert other["P02340"] == GeneNames(10090, "Tp53", ("P53", "Trp53"))
    assert other["P00330"].taxon == 559292 and other["P00330"].primary == "ADH1"
    human = read_gene_names(FIX / "human_names.tsv", taxon=9606)
    assert human["P04637"].taxon == 9606 and human["P04637"].primary == "TP53"


def test_symbol_routes():
    genes = GeneIndex()
    genes.add_gene_info(FIX / "human.gene_info")
    genes.add_gene_info(FIX / "mouse.gene_info")
    mgi = read_mgi_symbols(FIX / "mgi.tsv")
    names = {
        "P02340": GeneNames(10090, "Tp53", ("P53", "Trp53")),  # UniProt synonym Trp53 is NCBI's symbol
        "Q00001": GeneNames(10090, "Pzp"),                    # symbol
        "Q00002": GeneNames(9606, "Pzp"),                     # a mouse symbol, but a human entry: no id
        "Q00003": GeneNames(10090, "bfy"),                    # a gene_info synonym: only with synonyms=True
        "P10361": GeneNames(10116, "Tp53", ("P53",)),         # rat: no gene_info in the mirror
    }
    mapped = map_by_symbol(names, genes, mgi, synonyms=False)
    assert mapped == {"P02340": ("22059", "uniprot_synonym"), "Q00001": ("11287", "symbol")}
    assert map_by_symbol(names, genes, mgi, synonyms=True)["Q00003"] == ("22059", "synonym")
    # the MGI route: the primary name is an MGI symbol whose MGI id gene_info lists in dbXrefs
    renamed = {"Q00004": GeneNames(10090, "Pzp2")}
    assert map_by_symbol(renamed, genes, {"Pzp2": {"87854"}}, synonyms=False) == {"Q00004": ("11287", "mgi")}


def test_hgnc_wins_and_agreement_with_classes():
    xrefs = build_xrefs({"P04637": {"7157"}}, {"P04637": ("1", "symbol"), "P02340": ("22059", "uniprot_synonym")})
    assert xrefs == {"P04637": (["7157"], "hgnc"), "P02340": (["22059"], "uniprot_synonym")}
    classes = EquivalenceClasses([["Uniprot:P04637", "NCBI gene:7157"], ["Uniprot:P02340", "NCBI gene:9"],
                                  ["Uniprot:P10361", "NCBI gene:24842"]])
    check = check_against_classes(xrefs, {"P04637": 9606, "P02340": 10090, "P10361": 10116}, classes)
    assert check["by_route"]["hgnc"]["share"] == 1.0 and check["by_route"]["uniprot_synonym"]["share"] == 0.0
    assert check["by_taxon"]["10116"]["share"] == 0.0 and check["by_route"]["none"]["disagree"] == 1


def test_cli_writes_table_and_coverage(tmp_path: Path):
    out = tmp_path / "xrefs.tsv.gz"
    gene_xrefs(out, hgnc=FIX / "hgnc.tsv", human_names=FIX / "human_names.tsv", other_names=FIX / "other_names.tsv",
               gene_info=[FIX / "human.gene_info", FIX / "mouse.gene_info"], mgi=FIX / "mgi.tsv", synonyms=False,
               check=None)
    with gzip.open(out, "rt") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    assert rows[0] == ["kb_id", "xref"]
    assert ["UniProt:P04637", "NCBIGene:7157"] in rows and ["UniProt:P02340", "NCBIGene:22059"] in rows
    stats = json.loads((tmp_path / "xrefs.stats.json").read_text())
    assert stats["coverage"]["10090"] == {"accessions": 1, "with_ncbigene": 1, "share": 1.0, "routes": {"uniprot_synonym": 1}}
    assert stats["coverage"]["10116"]["with_ncbigene"] == 0 and stats["coverage"]["9606"]["share"] == 1.0


def test_missing_and_wrong_files(tmp_path: Path):
    with pytest.raises(GeneSourceError, match="not found"):
        read_hgnc(tmp_path / "none.tsv")
    with pytest.raises(GeneSourceError, match="lacks the column"):
        read_hgnc(FIX / "mgi.tsv")
    with pytest.raises(SystemExit):
        gene_xrefs(tmp_path / "x.tsv", hgnc=None, human_names=None, other_names=None, gene_info=[FIX / "mgi.tsv"],
                   mgi=None, synonyms=False, check=None)
