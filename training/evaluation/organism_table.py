"""Linking-only figures per gold organism: every organism with enough gold UniProt spans gets a row.

A gold span's organism is the taxon of its first gold id in the reference set's taxa (`organism_eval.gold_taxa`);
spans whose gold ids are in no reference set are one row of their own (`not in the reference set`). Per row:
spans, right (the linked id in a gold id's class), unlinked, and organism accuracy (the assigned taxon is a gold
id's). `other_organisms_recall` is the recall on the spans of every organism outside the five of the first
multi-organism set (human, mouse, rat, budding yeast, E. coli K-12), out-of-reference spans included.
"""

from collections import Counter
from typing import Dict, List, Mapping, Optional, Sequence

from spacy_nseen.organisms.lexicon import organism_name
from training.common.bioid_scoring import EquivalenceClasses, SpanKey

from .organism_eval import TAXA, gold_taxa
from .pipeline_outputs import SpanOutput

NOT_IN_REFERENCE = "not in the reference set"
MIN_SPANS = 20


def span_organism(ids: Sequence[str], taxa: Mapping[str, int]) -> str:
    """RETURNS (str): the taxon (as a string) of the span's first gold id with one, or `NOT_IN_REFERENCE`."""
    found = gold_taxa(ids, taxa)
    return str(found[0]) if found else NOT_IN_REFERENCE


def per_organism(gold: Mapping[SpanKey, List[str]], linked: Mapping[SpanKey, SpanOutput], equiv: EquivalenceClasses,
                 taxa: Mapping[str, int], min_spans: int = MIN_SPANS) -> Dict[str, object]:
    """The per-organism table and the recall outside the five organisms.

    gold (Mapping[SpanKey, List[str]]): every gold UniProt span's CURIEs (`linking_views.uniprot_gold`).
    linked (Mapping[SpanKey, SpanOutput]): the linker's answer per span.
    taxa (Mapping[str, int]): UniProt CURIE -> taxon of the reference set.
    min_spans (int): organisms with fewer spans are summed into one `smaller organisms` row.
    RETURNS (Dict[str, object]): `rows` (organism -> counts and shares), `other_organisms_recall` and its counts.
    """
    counts: Dict[str, Counter] = {}
    for key, ids in gold.items():
        row = counts.setdefault(span_organism(ids, taxa), Counter())
        out = linked.get(key)
        classes = {equiv.canon(i) for i in ids}
        row["spans"] += 1
        row["right"] += out is not None and out.kb_id is not None and equiv.canon(out.kb_id) in classes
        row["unlinked"] += out is None or out.kb_id is None
        row["organism_right"] += out is not None and out.taxon is not None and out.taxon in gold_taxa(ids, taxa)
    rows: Dict[str, Dict[str, object]] = {}
    small: Counter = Counter()
    for organism, c in sorted(counts.items(), key=lambda item: -item[1]["spans"]):
        if c["spans"] < min_spans and organism != NOT_IN_REFERENCE:
            small.update(c)
            small["organisms"] += 1
            continue
        rows[organism] = _shares(c, organism)
    if small:
        rows[f"smaller organisms (< {min_spans} spans each)"] = _shares(small, "")
    other = Counter()
    for organism, c in counts.items():
        if organism == NOT_IN_REFERENCE or int(organism) not in TAXA:
            other.update(c)
    return {"rows": rows, "min_spans": min_spans,
            "other_organisms_recall": round(other["right"] / other["spans"], 4) if other["spans"] else 0.0,
            "other_organisms_spans": other["spans"], "other_organisms_right": other["right"]}


def _shares(c: Counter, organism: str) -> Dict[str, object]:
    n = c["spans"]
    name = organism_name(int(organism)) if organism.isdigit() else organism
    return {"name": name, "spans": n, "right": c["right"], "recall": round(c["right"] / n, 4) if n else 0.0,
            "unlinked": c["unlinked"], "organism_accuracy": round(c["organism_right"] / n, 4) if n else 0.0,
            **({"organisms": c["organisms"]} if c.get("organisms") else {})}


def per_organism_markdown(table: Mapping[str, object]) -> List[str]:
    """RETURNS (List[str]): Markdown lines of the per-organism table."""
    lines = [f"Per gold organism (linking only; organisms with ≥ {table['min_spans']} gold spans; recall outside "
             f"the five organisms: **{table['other_organisms_recall']:.3f}**, {table['other_organisms_right']}/"
             f"{table['other_organisms_spans']}):", "",
             "| organism | taxon | gold spans | right | recall | unlinked | organism accuracy |",
             "|---|---|---|---|---|---|---|"]
    for organism, r in table["rows"].items():  # type: ignore[attr-defined]
        taxon = organism if organism.isdigit() else ""
        lines.append(f"| {r['name'] or organism} | {taxon} | {r['spans']} | {r['right']} | {r['recall']:.3f} | "
                     f"{r['unlinked']} | {r['organism_accuracy']:.3f} |")
    return lines


def optional_per_organism(gold: Mapping[SpanKey, List[str]], linked: Mapping[SpanKey, SpanOutput],
                          equiv: EquivalenceClasses, taxa: Optional[Mapping[str, int]]) -> Optional[Dict[str, object]]:
    """RETURNS (Optional[Dict[str, object]]): `per_organism`, or None without taxa."""
    return per_organism(gold, linked, equiv, taxa) if taxa is not None else None
