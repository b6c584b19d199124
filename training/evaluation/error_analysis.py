"""List and classify a linker's Hits@1 misses on Bio-ID (per mention text, with occurrence counts).

python -m training.evaluation.error_analysis --kb uniprot --linker training_output/linkers/uniprot_hgnc \\
    --mentions ../shared/data/bioid/mentions.tsv.gz --output results/error_analysis_uniprot_hgnc.md

The queries are the in-KB queries of `training.evaluation.evaluate` (same protocol); the gold ids are only used to
decide what is a miss and to classify it. Classes, in this order:
- ambiguous exact name: a gold entity has a name matching the mention exactly (strict or loose key), and so
  do other entities, one of which was ranked first;
- exact name of another entity only: no gold name matches, but another entity's name does;
- Greek or dash variant: no exact match, and the mention has a Greek letter or a non-ASCII dash;
- under-specified name: no exact match, and a gold name's loose key starts with the mention's
  (families and isoforms: `ATG9` → ATG9A / ATG9B);
- name absent: none of the above (abbreviations, other spellings).
"""
import unicodedata
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Dict, List, Optional

import typer
from wasabi import msg

from training.common.bioid import kb_queries, read_mentions, read_secondary_map
from training.common.mirror import mirror_file
from training.evaluation.evaluate import select_documents
from training.linker.settings_spec import parse_variant

app = typer.Typer(add_completion=False)
CLASSES = (
    "ambiguous exact name",
    "exact name of another entity only",
    "Greek or dash variant",
    "under-specified name",
    "name absent",
)
_DASHES = set("\u00ad\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d")


def has_greek_or_dash(text: str) -> bool:
    """RETURNS (bool): whether the text has a Greek letter or a non-ASCII dash."""
    return any(c in _DASHES or "GREEK" in unicodedata.name(c, "") for c in text)


def classify(text: str, gold: frozenset, linker) -> str:
    """RETURNS (str): the class (see the module doc) of a missed mention."""
    from spacy_nseen.text.normalization import loose_key

    reference = linker.reference_set
    exact = linker.exact_names.lookup(text)
    matched = {reference.kb_ids[int(reference.name_entity[row])] for row in exact}
    if matched & gold:
        return CLASSES[0]
    if matched:
        return CLASSES[1]
    if has_greek_or_dash(text):
        return CLASSES[2]
    key = loose_key(text)
    if key and any(loose_key(name).startswith(key) for g in gold for name in reference.names_of(g)):
        return CLASSES[3]
    return CLASSES[4]


def _kind_of(linker, kb_id: str, name: str) -> str:
    reference = linker.reference_set
    entity = reference.entity_index(kb_id)
    for row, (n, e) in enumerate(zip(reference.names, reference.name_entity)):
        if n == name and int(e) == entity:
            return reference.kinds[row]
    return ""


@app.command()
def main(
    kb: str = typer.Option(..., "--kb", help="uniprot or chebi"),
    linker_dir: Path = typer.Option(..., "--linker", help="Trained linker directory"),
    output: Path = typer.Option(..., "--output", help="Markdown file to write"),
    mentions: Optional[Path] = typer.Option(None, "--mentions", help="Bio-ID mentions TSV (any split)"),
    chebi_secondary: Optional[Path] = typer.Option(None, "--chebi-secondary", help="secondary→primary TSV"),
    documents: str = typer.Option("all", "--documents", help="all, even or odd (see training.evaluation.evaluate)"),
    settings: str = typer.Option("", "--settings", help="Linker settings changes, e.g. 'exact_tie_break=names'"),
    top: int = typer.Option(40, "--top", help="Mention texts listed"),
) -> None:
    """Write the Hits@1 misses grouped by mention text, classified, as Markdown."""
    import sys

    from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker

    command = " ".join(["python", "-m", "training.evaluation.error_analysis", *sys.argv[1:]])
    mentions = mentions or mirror_file("bioid", "mentions.tsv.gz")
    secondary = read_secondary_map(chebi_secondary) if chebi_secondary else None
    queries = kb_queries(select_documents(read_mentions(mentions), documents), kb, secondary)
    linker = KnowledgeBaseLinker.from_disk(linker_dir)
    if settings:
        _, changed = parse_variant(f"x:{settings}", linker.settings)
        linker = linker.with_settings(changed)
    linker = linker.with_settings(replace(linker.settings, search_threads=1))
    ids = set(linker.reference_set.kb_ids)
    if secondary:
        ids |= {secondary.get(i, i) for i in ids}
    in_kb = [q for q in queries if q.gold & ids]
    strings = sorted({q.text for q in in_kb})
    ranked = dict(zip(strings, linker.link(strings, top_k=10)))
    missed: Counter = Counter()
    gold: Dict[str, set] = {}
    for q in in_kb:
        top_ids = [(secondary or {}).get(c.kb_id, c.kb_id) for c in ranked[q.text]]
        if not top_ids or top_ids[0] not in q.gold:
            missed[q.text] += 1
            gold.setdefault(q.text, set()).update(q.gold)
    by_class: Counter = Counter()
    rows: List[str] = []
    for text, count in missed.most_common():
        golds = frozenset(gold[text])
        cls = classify(text, golds, linker)
        by_class[cls] += count
        if len(rows) < top:
            cands = ranked[text]
            rank = next((i + 1 for i, c in enumerate(cands) if (secondary or {}).get(c.kb_id, c.kb_id) in golds), None)
            first = f"{cands[0].kb_id} `{cands[0].name}` ({_kind_of(linker, cands[0].kb_id, cands[0].name)})" if cands else "–"
            gold_names = "; ".join(
                f"{g} ({', '.join(linker.reference_set.names_of(g)[:3])})" for g in sorted(golds) if g in ids
            )[:160]
            rows.append(f"| `{text}` | {count} | {cls} | {rank or '>10'} | {first} | {gold_names} |")
    n_missed = sum(missed.values())
    lines = [
        f"# Hits@1 misses of `{linker_dir}` on Bio-ID ({kb}, documents: {documents})", "",
        f"Command: `{command}`", "",
        f"Settings: `{linker.settings.to_dict()}`", "",
        f"In-KB occurrences: {len(in_kb)}; missed at H@1: {n_missed} ({n_missed / max(len(in_kb), 1):.3f}), "
        f"over {len(missed)} distinct mention texts.", "",
        "## Misses by class (occurrences)", "", "| class | occurrences | share of misses |", "| --- | --- | --- |",
    ]
    lines += [f"| {c} | {by_class[c]} | {by_class[c] / max(n_missed, 1):.3f} |" for c in CLASSES]
    lines += ["", f"## The {min(top, len(missed))} most frequent missed mention texts", "",
              "| mention | occurrences | class | gold rank | ranked first | gold entities (first names) |",
              "| --- | --- | --- | --- | --- | --- |", *rows, ""]
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("\n".join(lines), encoding="utf8")
    msg.good(f"Wrote {output}: {n_missed} missed occurrences, {dict(by_class)}")


if __name__ == "__main__":
    app()
