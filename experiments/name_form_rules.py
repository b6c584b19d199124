"""What each name-form rule of `training.data.organism_name_forms` buys, as exact matches on Bio-ID mentions.

    python -m experiments.name_form_rules corpus/sources/organisms/names_by_organism_extra.tsv.gz \\
        corpus/sources/bioid/mentions.tsv.gz --output results/organisms_all/name_form_rules.json

For every gold UniProt mention (any split, per occurrence) whose gold entry is one of the extra organisms' (model
organisms, `extra_organisms.MODEL_ORGANISMS`), it counts whether the mention's loose key (`text.normalization`:
case, dashes, Greek letters folded) equals a name of a gold entry: among the entry's own names, and then among the
forms of each rule. `wrong` counts the mentions (of any gold) whose key equals a rule's form of an entry that is
not their gold: the matches a rule adds that can only be wrong. Documents: `--documents even|odd|all`.
"""

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, Set

import typer

from spacy_nseen.text.normalization import loose_key
from training.common.bioid import in_document_half
from training.common.tsv_io import iter_tsv
from training.data.extra_organisms import Selection, parse_selection, read_extra_entries
from training.data.organism_name_forms import RULES, name_forms


def main(
    extra: Path = typer.Argument(..., help="names_by_organism_extra.tsv.gz"),
    mentions: Path = typer.Argument(..., help="Bio-ID mentions.tsv.gz"),
    output: Path = typer.Option(..., "--output", help="JSON file to write"),
    organisms: str = typer.Option("model", help="The extra taxa (as build_reference_sets --organisms)"),
    documents: str = typer.Option("all", help="all, even or odd"),
) -> None:
    """Count the exact matches each name-form rule adds (right and wrong) on the gold mentions."""
    _, selection = parse_selection(organisms)
    own: Dict[str, Set[str]] = defaultdict(set)  # loose key -> accessions with that own name
    forms: Dict[str, Dict[str, Set[str]]] = {rule: defaultdict(set) for rule in RULES}
    for entry in read_extra_entries(extra, selection if not selection.empty else Selection(everything=True)):
        for name, _ in entry.kept_names():
            own[loose_key(name)].add(entry.accession)
        for rule, form in name_forms(entry, list(RULES)):
            forms[rule][loose_key(form)].add(entry.accession)
    accessions: Set[str] = set().union(*own.values()) if own else set()
    counts: Dict[str, Counter] = {rule: Counter() for rule in ("own names", *RULES)}
    n_gold = 0
    for row in iter_tsv(mentions, ("pmc_id", "mention", "ids")):
        if not in_document_half(row["pmc_id"], documents):
            continue
        gold = {i.split(":", 1)[1].strip() for i in row["ids"].split("|") if i.startswith("Uniprot:")}
        if not gold:
            continue
        key = loose_key(row["mention"])
        extra_gold = bool(gold & accessions)
        n_gold += extra_gold
        if extra_gold and gold & own.get(key, set()):
            counts["own names"]["right"] += 1
        for rule in RULES:
            hit = forms[rule].get(key, set())
            if hit & gold and not gold & own.get(key, set()):
                counts[rule]["right"] += 1
            if hit - gold:
                counts[rule]["wrong"] += 1
    result = {"command": "python -m experiments.name_form_rules " + " ".join(map(str, (extra, mentions)))
              + f" --output {output} --organisms {organisms} --documents {documents}",
              "gold_mentions_of_extra_entries": n_gold,
              "rules": {rule: dict(c) for rule, c in counts.items()}}
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
    typer.echo(json.dumps(result["rules"]))


if __name__ == "__main__":
    typer.run(main)
