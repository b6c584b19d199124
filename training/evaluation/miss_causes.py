"""Why a linker's best candidate for an occurrence is wrong, by the gold id's organism.

Each in-KB occurrence whose best candidate is not a gold id gets one cause, read in this order:
- `organism assigned wrong`: the best candidate is of another organism than the gold ids', and so was the
  organism assigned to the occurrence (or none was assigned);
- `other organism ranked first`: the best candidate is of another organism although the assigned organism was
  the gold one (name evidence outweighed the organism);
- `other entity, gold organism, gold in top k`: the best candidate is of the gold organism, a gold id ranks lower;
- `gold not in top k`: the best candidate is of the gold organism and no gold id is among the k ranked;
- `no candidate`: nothing ranked.
"""
from collections import Counter
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Sequence

from training.evaluation.tables import markdown_row

ORGANISM_WRONG = "organism assigned wrong"
OTHER_ORGANISM_FIRST = "other organism ranked first"
OTHER_ENTITY = "other entity, gold organism, gold in top k"
OUT_OF_REACH = "gold not in top k"
NO_CANDIDATE = "no candidate"
CAUSES = (ORGANISM_WRONG, OTHER_ORGANISM_FIRST, OTHER_ENTITY, OUT_OF_REACH, NO_CANDIDATE)
EXAMPLES = 5  # most frequent missed (mention, gold, best candidate) triples kept per cause


def miss_cause(ranked: Sequence[str], gold: FrozenSet[str], assigned: Optional[int],
               taxon_of: Callable[[str], Optional[int]]) -> Optional[str]:
    """RETURNS (Optional[str]): the cause of a miss (one of `CAUSES`), or None when the best candidate is right."""
    if not ranked:
        return NO_CANDIDATE
    if ranked[0] in gold:
        return None
    gold_taxa = {t for t in (taxon_of(g) for g in gold) if t is not None}
    if taxon_of(ranked[0]) not in gold_taxa:
        return OTHER_ORGANISM_FIRST if assigned in gold_taxa else ORGANISM_WRONG
    return OTHER_ENTITY if any(c in gold for c in ranked) else OUT_OF_REACH


def miss_causes(texts: Sequence[str], ranked: Sequence[Sequence[str]], golds: Sequence[FrozenSet[str]],
                assigned: Sequence[Optional[int]], labels: Sequence[str],
                taxon_of: Callable[[str], Optional[int]]) -> Dict[str, Any]:
    """Count the causes of the misses per gold organism label.

    texts, ranked, golds, assigned, labels: per occurrence, the mention text, the ranked kb ids, the gold ids,
        the assigned taxon (None: none) and the gold ids' organism label.
    RETURNS (Dict[str, Any]): "occurrences", "misses", "by_organism" (label → cause → count, with "occurrences"),
        "examples" (cause → the most frequent [mention, gold ids, best candidate, count] rows).
    """
    by_organism: Dict[str, Counter] = {}
    examples: Dict[str, Counter] = {cause: Counter() for cause in CAUSES}
    misses = 0
    for text, ranks, gold, taxon, label in zip(texts, ranked, golds, assigned, labels):
        counts = by_organism.setdefault(label, Counter())
        counts["occurrences"] += 1
        cause = miss_cause(ranks, gold, taxon, taxon_of)
        if cause is None:
            continue
        misses += 1
        counts[cause] += 1
        examples[cause][(text, "|".join(sorted(gold)), ranks[0] if ranks else "")] += 1
    return {
        "occurrences": len(texts), "misses": misses,
        "by_organism": {label: dict(counts) for label, counts in sorted(by_organism.items())},
        "examples": {cause: [[*key, n] for key, n in found.most_common(EXAMPLES)]
                     for cause, found in examples.items() if found},
    }


def markdown(name: str, causes: Dict[str, Any]) -> List[str]:
    """RETURNS (List[str]): Markdown lines: the causes per gold organism, then the most frequent misses per cause."""
    groups = causes["by_organism"]
    lines = [f"## Why {name}'s best candidate is wrong ({causes['misses']} of {causes['occurrences']} occurrences)", "",
             "Causes, read in this order (`training.evaluation.miss_causes`): the best candidate of another organism "
             "when the assigned organism was wrong too, or although it was right; of the gold organism with a gold id "
             "lower in the ranking, or with none in it.", "",
             markdown_row(["gold organism", "occurrences", *CAUSES]), markdown_row(["---"] * (len(CAUSES) + 2))]
    for label, counts in groups.items():
        lines.append(markdown_row([label, str(counts["occurrences"]), *(str(counts.get(c, 0)) for c in CAUSES)]))
    totals = [sum(counts.get(c, 0) for counts in groups.values()) for c in CAUSES]
    lines += [markdown_row(["all", str(causes["occurrences"]), *map(str, totals)]), ""]
    for cause, rows in causes["examples"].items():
        shown = "; ".join(f"`{text}` → {best or '(none)'} (gold {gold}) ×{n}" for text, gold, best, n in rows)
        lines.append(f"- {cause}: {shown}")
    return lines + [""]
