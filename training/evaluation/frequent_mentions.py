"""How much of a Hits@1 figure rests on a few frequent mention strings.

A handful of strings make up a large share of Bio-ID's occurrences (`LC3` alone is 883 UniProt mentions), so a
small change of the encoder that flips one of them moves the per-occurrence table by several points. This
module reports, for the most frequent in-KB strings, their share of the occurrences and of the right answers,
and Hits@1 with each of them (and all of them) left out.
"""
from collections import Counter
from typing import Any, Dict, List, Sequence

TOP = 10


def frequent_mentions(texts: Sequence[str], ranked: Sequence[Sequence[str]], golds: Sequence[frozenset],
                      top: int = TOP) -> Dict[str, Any]:
    """Hits@1 per occurrence and its dependence on the `top` most frequent strings.

    texts (Sequence[str]): The mention string of each occurrence.
    ranked (Sequence[Sequence[str]]): The ranked ids of each occurrence.
    golds (Sequence[frozenset]): The gold ids of each occurrence.
    top (int): How many of the most frequent strings to examine.
    RETURNS (Dict[str, Any]): `hits@1`, `top_share_of_occurrences`, `top_share_of_hits` (the right answers that
        are occurrences of those strings), `hits@1_without_top` and `strings` (per string: occurrences, right,
        `hits@1_without` = Hits@1 over the other occurrences, and `delta` = that minus `hits@1`).
    """
    right = [bool(r) and r[0] in g for r, g in zip(ranked, golds)]
    n, hits = len(right), sum(right)
    occurrences = Counter(texts)
    right_by_text: Counter = Counter(t for t, ok in zip(texts, right) if ok)
    hits1 = hits / n if n else 0.0
    strings: List[Dict[str, Any]] = []
    for text, count in sorted(occurrences.items(), key=lambda kv: (-kv[1], kv[0]))[:top]:
        rest = n - count
        without = (hits - right_by_text[text]) / rest if rest else 0.0
        strings.append({"mention": text, "occurrences": count, "right": right_by_text[text],
                        "hits@1_without": round(without, 4), "delta": round(without - hits1, 4)})
    top_occurrences = sum(s["occurrences"] for s in strings)
    top_right = sum(s["right"] for s in strings)
    rest = n - top_occurrences
    return {
        "hits@1": round(hits1, 4),
        "top": len(strings),
        "top_share_of_occurrences": round(top_occurrences / n, 4) if n else 0.0,
        "top_share_of_hits": round(top_right / hits, 4) if hits else 0.0,
        "hits@1_without_top": round((hits - top_right) / rest, 4) if rest else 0.0,
        "strings": strings,
    }


def markdown(systems: Dict[str, Dict[str, Any]]) -> List[str]:
    """RETURNS (List[str]): Markdown lines: one summary row per system, then the per-string table of each."""
    with_report = {name: r["frequent_mentions"] for name, r in systems.items() if r.get("frequent_mentions")}
    if not with_report:
        return []
    lines = ["## How much rests on the most frequent mention strings (per occurrence)", "",
             "| system | H@1 | top strings' share of occurrences | their share of the right answers | H@1 without them |",
             "| --- | --- | --- | --- | --- |"]
    for name, f in with_report.items():
        lines.append(f"| {name} | {f['hits@1']:.3f} | {f['top_share_of_occurrences']:.3f} | "
                     f"{f['top_share_of_hits']:.3f} | {f['hits@1_without_top']:.3f} |")
    lines.append("")
    for name, f in with_report.items():
        if not name.startswith("nseen"):
            continue
        lines += [f"### {name}: the {f['top']} most frequent strings", "",
                  "| mention | occurrences | right | H@1 without it | change |", "| --- | --- | --- | --- | --- |"]
        for s in f["strings"]:
            lines.append(f"| `{s['mention']}` | {s['occurrences']} | {s['right']} | {s['hits@1_without']:.3f} | "
                         f"{s['delta']:+.3f} |")
        lines.append("")
    return lines
