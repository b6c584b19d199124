"""How many Bio-ID gold UniProt mentions have a gold id in each reference set (per occurrence).

    python -m experiments.reference_coverage corpus/sources/bioid/mentions.tsv.gz corpus/ner/dev.spacy \\
        --taxa five=corpus/reference_multi/uniprot_taxa.tsv --taxa model=corpus/reference_model/uniprot_taxa.tsv \\
        --taxa all=corpus/reference_all/uniprot_taxa.tsv --secondary corpus/sources/organisms/uniprot_sec_ac.txt \\
        --output results/organisms_all/coverage.json

Mentions of the NER dev articles (`dev`) and of the other articles (`train_rest`) are counted apart; a mention is
covered if one of its gold ids (or, in `covered_with_retired_mapped`, its current accession) is in the set.
"""

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, List

import typer

from training.common.tsv_io import iter_tsv
from training.data.uniprot_secondary import read_secondary_accessions


def main(
    mentions: Path = typer.Argument(..., help="Bio-ID mentions.tsv.gz"),
    dev: Path = typer.Argument(..., help="The NER dev DocBin (its articles are the dev articles)"),
    taxa: List[str] = typer.Option(..., "--taxa", help="NAME=kb_id<TAB>taxon_id TSV of a reference set"),
    secondary: Path = typer.Option(..., "--secondary", help="UniProt sec_ac.txt"),
    output: Path = typer.Option(..., "--output", help="JSON to write"),
) -> None:
    """Count the covered gold mentions per reference set."""
    import spacy
    from spacy.tokens import DocBin

    dev_articles = {str(d.user_data.get("pmc_id")) for d in DocBin().from_disk(dev).get_docs(spacy.blank("en").vocab)}
    sec = read_secondary_accessions(secondary)
    sets: Dict[str, set] = {}
    for spec in taxa:
        name, _, path = spec.partition("=")
        sets[name] = {r["kb_id"].split(":", 1)[-1] for r in iter_tsv(Path(path), ("kb_id", "taxon_id"))}
    counts: Dict[str, Counter] = {}
    for row in iter_tsv(mentions, ("pmc_id", "ids")):
        ids = [i.split(":", 1)[1].strip() for i in row["ids"].split("|") if i.startswith("Uniprot:")]
        if not ids:
            continue
        part = "dev" if row["pmc_id"] in dev_articles else "train_rest"
        for name, members in sets.items():
            c = counts.setdefault(f"{part}:{name}", Counter())
            c["mentions"] += 1
            c["covered"] += any(i in members for i in ids)
            c["covered_with_retired_mapped"] += any(sec.get(i, i) in members for i in ids)
    result = {"command": "python -m experiments.reference_coverage " + " ".join(sys.argv[1:]),
              "counts": {k: dict(v) for k, v in sorted(counts.items())}}
    output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
    typer.echo(json.dumps(result["counts"]))


if __name__ == "__main__":
    typer.run(main)
