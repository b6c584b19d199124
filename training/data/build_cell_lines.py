"""Build the cell line → species table used by organism assignment (`spacy_nseen.organisms`).

python -m training.data.build_cell_lines --source ../shared/data/cellosaurus/cell_line_species.tsv.gz \\
    --names ../shared/data/uniprot/names.tsv.gz --names ../shared/data/uniprot_other/names_by_organism.tsv.gz \\
    --names ../shared/data/chebi/names_3star_2018.tsv.gz --output corpus/cell_lines.json.gz
"""
import csv
import gzip
from pathlib import Path
from typing import Iterator, List, Optional

import typer
from wasabi import msg

from spacy_nseen.errors import ArtifactError
from spacy_nseen.organisms.cell_lines import CellLineTable

app = typer.Typer(add_completion=False)


def read_names(path: Path) -> Iterator[str]:
    """Yield the `name` column of a TSV with a header row (reference sets, UniProt/ChEBI name files)."""
    if not path.exists():
        raise ArtifactError(path, "name file not found", "Give a TSV with a 'name' column (e.g. the mirror's "
                            "uniprot/names.tsv.gz)")
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf8", newline="") as f:  # type: ignore[operator]
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        if "name" not in (reader.fieldnames or []):
            raise ArtifactError(path, "has no 'name' column", "Give a TSV with a header row and a 'name' column")
        for row in reader:
            yield row["name"] or ""


def build(source: Path, output: Path, names: Optional[List[Path]] = None) -> CellLineTable:
    """Build the table from Cellosaurus, mark names that are also protein/chemical names, and save it.

    RETURNS (CellLineTable): The table written to `output` (gzip JSON).
    """
    def other_names() -> Iterator[str]:
        for path in names or []:
            yield from read_names(path)

    table = CellLineTable.from_cellosaurus(source, other_names())
    table.to_disk(output)
    return table


@app.command()
def main(
    source: Path = typer.Option(..., "--source", help="cellosaurus/cell_line_species.tsv.gz of the mirror"),
    output: Path = typer.Option(..., "--output", help="Table to write (.json.gz)"),
    names: Optional[List[Path]] = typer.Option(None, "--names",
                                               help="TSV(s) with a 'name' column: protein/chemical names "
                                                    "that a cell line name must not be mistaken for"),
) -> None:
    """Build the cell line → species table."""
    try:
        table = build(source, output, names)
    except ArtifactError as e:
        msg.fail(str(e), exits=1)
    msg.good(f"{len(table)} cell line names ({len(table.confusable)} also protein/chemical names) → {output}")


if __name__ == "__main__":
    app()
