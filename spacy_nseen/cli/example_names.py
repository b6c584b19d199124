"""`python -m spacy_nseen example-names OUTPUT.tsv`: write the README's example names file (20 names of 9 cell
lines, cut from Cellosaurus, CC BY 4.0; shipped with the package), so the README runs from any directory."""

from pathlib import Path

import typer

from . import app

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "cell_lines.tsv"


@app.command("example-names")
def example_names(
    output: Path = typer.Argument(Path("cell_lines.tsv"), help="Where to write the example names file"),
) -> None:
    """Write the example names file of the README (kb_id<TAB>name<TAB>kind, 20 names of 9 cell lines)."""
    if output.exists():
        typer.echo(f"error: {output} exists; give another path or delete it", err=True)
        raise typer.Exit(1)
    output.write_bytes(EXAMPLE.read_bytes())
    typer.echo(f"example-names: {output} (20 names of 9 cell lines, from Cellosaurus, CC BY 4.0)")
