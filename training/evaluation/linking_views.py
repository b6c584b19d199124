"""The linking-only view on gold spans, as Bio-ID's scorer counts it (pure functions, no spaCy).

Every gold protein/gene/chemical mention's span was given to the linker alone (`training.evaluation.pipeline_outputs`).
From its answers (`SpanOutput` per span) this module derives:

- P/R/F per category with the equivalence classes (P = right / linked, un-normalized gold spans that got an id
  count as wrong; R = right / normalized gold spans), once per primary-id mode;
- `uniprot_all_gold`: all gold spans carrying a UniProt id, out-of-KB ones counted as misses (issue 14);
- `nil`: the share of un-normalized protein/gene gold mentions (`protein:Flag`) left unlinked (issue 15);
- `organism`: the taxon written on gold UniProt spans against the gold id's taxon (if the pipeline writes one);
- `uniprot_miss_causes`: each gold UniProt span's outcome by cause (out of KB, left unlinked, wrong organism,
  another id of the right organism), with the most frequent mention strings of each and, given the reference
  set's taxa, the spans of each gold organism (`gold_organism`).
"""
from collections import Counter
from typing import Dict, List, Mapping, Optional, Sequence, Set

from training.common.bioid_scoring import (CATEGORY_OF_TYPE, EquivalenceClasses, GoldMention, SpanKey, gold_by_span,
                                           span_scores, to_curie)
from .organism_eval import OTHER, TAXA, gold_taxa, organism_confusion
from .organism_table import optional_per_organism
from .pipeline_outputs import SpanOutput


def uniprot_gold(mentions: Sequence[GoldMention],
                 secondary: Optional[Mapping[str, str]] = None) -> Dict[SpanKey, List[str]]:
    """RETURNS (Dict[SpanKey, List[str]]): The UniProt CURIEs of every gold span carrying one, in id order (retired
    accessions mapped to their current ones with `secondary`)."""
    out: Dict[SpanKey, List[str]] = {}
    for m in mentions:
        ids = [to_curie(i, secondary) for i in m.ids if i.startswith("Uniprot:") and i.split(":", 1)[1].strip()]
        if ids:
            out.setdefault(m.key, [])
            out[m.key] += [i for i in ids if i not in out[m.key]]
    return out


def nil_spans(mentions: Sequence[GoldMention], categories: Set[str]) -> Dict[SpanKey, str]:
    """RETURNS (Dict[SpanKey, str]): span -> entity type of the un-normalized mentions of the categories
    (spans that also carry a normalized mention are not NIL)."""
    normalized = {m.key for m in mentions if not m.is_nil}
    return {m.key: m.entity_type for m in mentions
            if m.is_nil and CATEGORY_OF_TYPE.get(m.entity_type) in categories and m.key not in normalized}


def uniprot_all_gold(gold: Mapping[SpanKey, List[str]], linked: Mapping[SpanKey, SpanOutput],
                     equiv: EquivalenceClasses, known_ids: Set[str]) -> Dict[str, float]:
    """Linking-only accuracy over all gold UniProt spans (a span that could not be linked counts as a miss).

    RETURNS (Dict[str, float]): `share` (with the equivalence classes), `share_strict` (the gold ids only),
    `share_in_kb` (spans with a gold id in the reference set) and the counts.
    """
    right = strict = in_kb = right_in_kb = 0
    for key, ids in gold.items():
        out = linked.get(key)
        pred = out.kb_id if out is not None else None
        ok = pred is not None and equiv.canon(pred) in {equiv.canon(i) for i in ids}
        right += ok
        strict += pred is not None and pred in ids
        if any(i in known_ids for i in ids):
            in_kb += 1
            right_in_kb += ok
    n = len(gold)
    return {"share": round(right / n, 4) if n else 0.0, "share_strict": round(strict / n, 4) if n else 0.0,
            "share_in_kb": round(right_in_kb / in_kb, 4) if in_kb else 0.0,
            "right": right, "right_strict": strict, "spans": n, "spans_in_kb": in_kb, "right_in_kb": right_in_kb}


RIGHT = "right"
OUT_OF_KB = "out of KB (no gold id in the reference set)"
UNLINKED_RANKED_FIRST = "left unlinked, the gold id ranked first"
UNLINKED_LOWER = "left unlinked, the gold id a lower candidate"
UNLINKED_ABSENT = "left unlinked, the gold id not a candidate"
WRONG_ORGANISM = "another id, organism assigned wrong"
OTHER_ORGANISMS_ID = "another id, organism right, the id of another organism"
GOLD_ORGANISMS_ID = "another id of the gold organism"
NO_ORGANISM_INFO = "another id (no organism information)"
MISS_CAUSES = (RIGHT, OUT_OF_KB, UNLINKED_RANKED_FIRST, UNLINKED_LOWER, UNLINKED_ABSENT, WRONG_ORGANISM,
               OTHER_ORGANISMS_ID, GOLD_ORGANISMS_ID, NO_ORGANISM_INFO)
SEVERAL = "several"
GOLD_ORGANISMS = (*TAXA.values(), SEVERAL, OTHER)


def gold_organism(ids: Sequence[str], taxa: Mapping[str, int]) -> str:
    """RETURNS (str): the organism of a span's gold ids (`GOLD_ORGANISMS`): its name if they share one of the five,
    `several` if they name several organisms, `other/unknown` if none is in the reference set (out of KB)."""
    organisms = gold_taxa(ids, taxa)
    if len(organisms) > 1:
        return SEVERAL
    return TAXA.get(organisms[0], OTHER) if organisms else OTHER


def miss_cause(ids: Sequence[str], out: Optional[SpanOutput], equiv: EquivalenceClasses, known_ids: Set[str],
               taxa: Optional[Mapping[str, int]]) -> str:
    """RETURNS (str): one of `MISS_CAUSES` for a gold UniProt span with these ids and this linker output."""
    gold = {equiv.canon(i) for i in ids}
    if out is not None and out.kb_id is not None and equiv.canon(out.kb_id) in gold:
        return RIGHT
    if not any(i in known_ids for i in ids):
        return OUT_OF_KB
    if out is None or out.kb_id is None:
        ranks = [r for r, c in enumerate(out.candidates if out else ()) if equiv.canon(c) in gold]
        return UNLINKED_ABSENT if not ranks else UNLINKED_RANKED_FIRST if ranks[0] == 0 else UNLINKED_LOWER
    if taxa is None or out.taxon is None:
        return NO_ORGANISM_INFO
    gold_organisms = gold_taxa(ids, taxa)
    if out.taxon not in gold_organisms:
        return WRONG_ORGANISM
    return GOLD_ORGANISMS_ID if taxa.get(out.kb_id) in gold_organisms else OTHER_ORGANISMS_ID


def uniprot_miss_causes(gold: Mapping[SpanKey, List[str]], linked: Mapping[SpanKey, SpanOutput],
                        equiv: EquivalenceClasses, known_ids: Set[str], taxa: Optional[Mapping[str, int]] = None,
                        texts: Optional[Sequence[str]] = None, top: int = 5) -> Dict[str, Dict[str, object]]:
    """Every gold UniProt span's outcome by cause (`MISS_CAUSES`, all listed, zero counts included).

    texts (Optional[Sequence[str]]): the docs' texts, to list each cause's `top` most frequent mention strings.
    RETURNS (Dict[str, Dict[str, object]]): cause -> {"spans", "share" (of all gold UniProt spans), "mentions",
        and with `taxa` "gold_organism": {organism: spans} over `GOLD_ORGANISMS`}.
    """
    counts: Counter = Counter()
    strings: Dict[str, Counter] = {cause: Counter() for cause in MISS_CAUSES}
    organisms: Dict[str, Counter] = {cause: Counter() for cause in MISS_CAUSES}
    for key, ids in gold.items():
        cause = miss_cause(ids, linked.get(key), equiv, known_ids, taxa)
        counts[cause] += 1
        if texts is not None:
            strings[cause][texts[key[0]][key[1]:key[2]]] += 1
        if taxa is not None:
            organisms[cause][gold_organism(ids, taxa)] += 1
    n = len(gold)
    return {cause: {"spans": counts[cause], "share": round(counts[cause] / n, 4) if n else 0.0,
                    "mentions": [[text, k] for text, k in strings[cause].most_common(top)],
                    **({"gold_organism": {o: organisms[cause][o] for o in GOLD_ORGANISMS}} if taxa is not None else {})}
            for cause in MISS_CAUSES}


def nil_unlinked(nil: Mapping[SpanKey, str], linked: Mapping[SpanKey, SpanOutput]) -> Dict[str, object]:
    """RETURNS (Dict[str, object]): the share of NIL spans the linker left without an id, overall and by type
    (spans the linker never saw, e.g. of a label it does not route, count as unlinked)."""
    total: Counter = Counter()
    unlinked: Counter = Counter()
    for key, etype in nil.items():
        total[etype] += 1
        out = linked.get(key)
        unlinked[etype] += out is None or out.kb_id is None
    n, k = sum(total.values()), sum(unlinked.values())
    return {"share": round(k / n, 4) if n else 0.0, "unlinked": k, "mentions": n,
            "by_type": {t: {"share": round(unlinked[t] / total[t], 4), "unlinked": unlinked[t], "mentions": total[t]}
                        for t in sorted(total)}}


def linking_only_views(mentions: Sequence[GoldMention], linked: Mapping[SpanKey, SpanOutput],
                       equiv: EquivalenceClasses, known_ids: Set[str], modes: Sequence[str],
                       taxa: Optional[Mapping[str, int]] = None, with_taxa: bool = False,
                       texts: Optional[Sequence[str]] = None) -> Dict[str, object]:
    """All linking-only figures on gold spans (see the module docstring).

    known_ids (Set[str]): CURIEs in the linker's reference sets (for the in-KB share).
    modes (Sequence[str]): primary-id modes to score ("kb_id", "ncbigene").
    taxa (Optional[Mapping[str, int]]): UniProt CURIE -> taxon; with `with_taxa`, the organism confusion table.
    texts (Optional[Sequence[str]]): the docs' texts (for the mention strings of each miss cause).
    """
    gold = gold_by_span(mentions, equiv)
    scores = {}
    for mode in modes:
        pred = {k: o.primary(mode) for k, o in linked.items()}
        scores[mode] = span_scores({k: v for k, v in pred.items() if v}, gold, equiv)
    uni = uniprot_gold(mentions, equiv.secondary)
    out: Dict[str, object] = {
        "scores": scores,
        "uniprot_all_gold": uniprot_all_gold(uni, linked, equiv, known_ids),
        "nil": nil_unlinked(nil_spans(mentions, {"protein_gene"}), linked),
        "nil_chemical": nil_unlinked(nil_spans(mentions, {"chemical"}), linked),
        "organism": None,
        "uniprot_miss_causes": uniprot_miss_causes(uni, linked, equiv, known_ids, taxa if with_taxa else None, texts),
        "per_organism": optional_per_organism(uni, linked, equiv, taxa if with_taxa else None),
    }
    if with_taxa and taxa is not None:
        pairs = [(gold_taxa(ids, taxa), linked[k].taxon if k in linked else None) for k, ids in uni.items()]
        out["organism"] = organism_confusion(pairs)
    return out
