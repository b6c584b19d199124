"""Evaluation 3: discovered names added automatically above a threshold chosen for precision ≥ 0.9 on the even
documents; linking-only on the odd documents' gold spans before and after.

    python -m training.synonyms.evaluate_added REVIEW.tsv... --pipeline /work/pipelines/full \\
        --mentions ../shared/data/bioid/mentions.tsv.gz --dev-stats corpus/ner/stats.json \\
        --out results/synonyms/added [--headline results/headline.json]

1. **Judged rows**: a review row (mention → kb_id) is judged on a half when a gold mention of that half's dev
   articles has the row's mention (by loose key) and ids of the row's kb; it is right when kb_id is among them.
2. **Threshold**, per reference set (each model calibrates its own scores): the lowest score at which the judged
   rows of the even half (scoring at least that) have precision ≥ `--target` (0.9), with at least `--min-judged`
   rows; none such: no name of that set is added.
3. **Added**: every row (both halves' strings, and strings Bio-ID never has) scoring at least the threshold, as
   names of kind `discovered` (`KnowledgeBaseLinker.add_names`).
4. **Linking only**: each distinct gold (mention, ids) of the odd dev articles' UniProt and ChEBI mentions is linked
   by its reference set's linker alone (the mention string, no article context), before and after; Hits@1.
   The precision of the added names is measured on the odd half's judged rows.
Writes `OUT/metrics.json`, `OUT/metrics.md`, `OUT/precision_recall.tsv` and `.png` (the even and odd halves'
precision and recall of the judged rows at each threshold) and, with `--headline`, `synonym_added_names_precision` (odd half) and
`synonym_linking_only_gain` (odd half, Hits@1 after - before, UniProt + ChEBI).
"""

import json
from pathlib import Path
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import typer
from wasabi import msg

from spacy_nseen.linker.kb_linker import load_linker
from spacy_nseen.synonyms.review_file import DISCOVERED_KIND, ReviewRow, read_review_file
from spacy_nseen.text.normalization import loose_key
from training.common.bioid import gold_ids, in_document_half, read_mentions, read_secondary_map
from training.common.data_errors import run_cli
from training.common.headline import command_line, update_headline
from training.synonyms.evaluate_missing import article_number, hits

KBS = ("uniprot", "chebi")


def gold_by_key(mentions_path: Path, dev_articles: Set[int], secondary: Optional[Dict[str, str]]) -> Dict[Tuple[str, str, str], Set[str]]:
    """RETURNS (Dict): (half, kb, loose key of the mention) -> the gold ids of the dev articles' mentions."""
    out: Dict[Tuple[str, str, str], Set[str]] = {}
    for m in read_mentions(mentions_path):
        if article_number(m.pmc_id) not in dev_articles:
            continue
        half = "even" if in_document_half(m.pmc_id, "even") else "odd"
        for kb in KBS:
            gold = gold_ids(m, kb, secondary if kb == "chebi" else None)
            if gold:
                out.setdefault((half, kb, loose_key(m.text)), set()).update(gold)
    return out


def judged(rows: List[ReviewRow], gold: Dict[Tuple[str, str, str], Set[str]], half: str) -> List[Tuple[float, bool]]:
    """RETURNS (List[Tuple[float, bool]]): (score, right) of the rows with gold on that half."""
    out = []
    for row in rows:
        ids = gold.get((half, row.kb, loose_key(row.mention)))
        if ids:
            out.append((row.score, row.kb_id in ids))
    return out


def precision_at(items: List[Tuple[float, bool]], threshold: float) -> Tuple[float, int]:
    """RETURNS (Tuple[float, int]): precision and count of the judged rows scoring at least `threshold`."""
    kept = [right for score, right in items if score >= threshold]
    return (sum(kept) / len(kept) if kept else float("nan")), len(kept)


def choose_threshold(items: List[Tuple[float, bool]], target: float, min_judged: int) -> Optional[float]:
    """RETURNS (Optional[float]): the lowest score with precision ≥ target over ≥ min_judged rows (None: none)."""
    for threshold in sorted({score for score, _ in items}):
        precision, count = precision_at(items, threshold)
        if count >= min_judged and precision >= target:
            return threshold
    return None


def recall_at(items: List[Tuple[float, bool]], threshold: float) -> float:
    """RETURNS (float): the share of the right judged rows scoring at least `threshold`."""
    right = [score for score, ok in items if ok]
    return sum(score >= threshold for score in right) / len(right) if right else float("nan")


def precision_recall_figure(curve: List[Dict[str, float]], threshold: Optional[float], path: Path, kb: str) -> None:
    """Draw precision against recall of the judged rows of both halves, the chosen threshold marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 4))
    for half, style in (("even", "-"), ("odd", "--")):
        ax.plot([row[f"{half}_recall"] for row in curve], [row[f"{half}_precision"] for row in curve], style,
                label=f"{half} documents")
        if threshold is not None:
            chosen = min(curve, key=lambda row: abs(row["threshold"] - threshold))
            ax.plot([chosen[f"{half}_recall"]], [chosen[f"{half}_precision"]], "o", color="black")
    ax.axhline(0.9, color="grey", linewidth=0.5)
    ax.set_xlabel("recall (right discovered names kept)")
    ax.set_ylabel("precision of discovered names")
    ax.set_title(f"Discovered {kb} names judged by Bio-ID dev gold")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def linking_queries(mentions_path: Path, dev_articles: Set[int], kb: str, half: str,
                    secondary: Optional[Dict[str, str]]) -> List[Tuple[str, FrozenSet[str]]]:
    """RETURNS (List[Tuple[str, FrozenSet[str]]]): distinct (mention, gold ids) of one half's dev articles."""
    seen = set()
    out = []
    for m in read_mentions(mentions_path):
        if article_number(m.pmc_id) not in dev_articles or not in_document_half(m.pmc_id, half):
            continue
        gold = gold_ids(m, kb, secondary if kb == "chebi" else None)
        if gold and (m.text, gold) not in seen:
            seen.add((m.text, gold))
            out.append((m.text, gold))
    return out


def main(
    reviews: List[Path] = typer.Argument(..., help="Review files of discover-synonyms (one per kb)"),
    pipeline: Path = typer.Option(..., "--pipeline"),
    mentions: Path = typer.Option(..., "--mentions", help="Bio-ID mentions.tsv.gz"),
    dev_stats: Path = typer.Option(..., "--dev-stats", help="The NER corpus's stats.json (dev_articles)"),
    out: Path = typer.Option(..., "--out"),
    secondary: Optional[Path] = typer.Option(None, "--secondary", help="ChEBI secondary_id -> primary_id TSV"),
    target: float = typer.Option(0.9, help="Precision the threshold must reach on the even half"),
    min_judged: int = typer.Option(10, help="Judged rows the threshold must keep on the even half"),
    headline: Optional[Path] = typer.Option(None, "--headline"),
) -> None:
    """Auto-add discovered names above an even-half threshold; linking-only on the odd half before and after."""
    command = command_line("training.synonyms.evaluate_added")
    dev_articles = {n for n in (article_number(a) for a in json.loads(dev_stats.read_text())["dev_articles"]) if n is not None}
    secondary_map = read_secondary_map(secondary) if secondary else None
    rows = [row for path in reviews for row in read_review_file(path).rows]
    gold = gold_by_key(mentions, dev_articles, secondary_map)
    thresholds: Dict[str, Optional[float]] = {}
    curves: Dict[str, List[Dict[str, float]]] = {}
    added_rows: List[ReviewRow] = []
    odd_added: List[Tuple[float, bool]] = []
    judged_counts: Dict[str, Tuple[int, int]] = {}
    for kb in KBS:  # each reference set its own threshold: its own model calibrated its scores
        kb_rows = [row for row in rows if row.kb == kb]
        even, odd = judged(kb_rows, gold, "even"), judged(kb_rows, gold, "odd")
        judged_counts[kb] = (len(even), len(odd))
        threshold = thresholds[kb] = choose_threshold(even, target, min_judged)
        curves[kb] = []
        for t in sorted({round(score, 2) for score, _ in even + odd}):
            pe, ne = precision_at(even, t)
            po, no = precision_at(odd, t)
            curves[kb].append({"threshold": t, "even_precision": pe, "even_rows": ne, "even_recall": recall_at(even, t),
                               "odd_precision": po, "odd_rows": no, "odd_recall": recall_at(odd, t)})
        if threshold is not None:
            added_rows += [row for row in kb_rows if row.score >= threshold]
            odd_added += [item for item in odd if item[0] >= threshold]
    odd_count = len(odd_added)
    odd_precision = sum(ok for _, ok in odd_added) / odd_count if odd_count else float("nan")
    linking: Dict[str, Dict[str, float]] = {}
    before_hits, after_hits, n_queries = 0.0, 0.0, 0
    for kb in KBS:
        linker = load_linker(pipeline / "nseen_linker" / f"kb_{kb}")
        queries = linking_queries(mentions, dev_articles, kb, "odd", secondary_map)
        texts, golds = [q[0] for q in queries], [q[1] for q in queries]
        before = [[c.kb_id for c in cands] for cands in linker.link(texts, top_k=5)]
        names = [(row.kb_id, row.mention, DISCOVERED_KIND) for row in added_rows if row.kb == kb]
        n_added = linker.add_names(names, source=",".join(str(p) for p in reviews), skip_unknown=True) if names else 0
        after = [[c.kb_id for c in cands] for cands in linker.link(texts, top_k=5)]
        changed = [
            {"mention": t, "gold": sorted(g), "before": b[:1], "after": a[:1]}
            for t, g, b, a in zip(texts, golds, before, after) if b[:1] != a[:1]
        ]
        linking[kb] = {"queries": len(queries), "names_added": n_added, "hits@1_before": hits(before, golds, 1),
                       "hits@1_after": hits(after, golds, 1), "changed": changed[:40]}  # type: ignore[dict-item]
        before_hits += hits(before, golds, 1) * len(queries)
        after_hits += hits(after, golds, 1) * len(queries)
        n_queries += len(queries)
    gain = (after_hits - before_hits) / n_queries if n_queries else 0.0
    result = {"command": command, "thresholds": thresholds, "target": target, "min_judged": min_judged,
              "rows": len(rows), "added": len(added_rows), "judged_even_odd": judged_counts,
              "odd_precision_of_added": odd_precision, "odd_judged_added": odd_count, "linking_only_odd": linking,
              "linking_only_gain": gain}
    out.mkdir(parents=True, exist_ok=True)
    (out / "metrics.json").write_text(json.dumps(result, indent=2, ensure_ascii=False), encoding="utf8")
    with (out / "precision_recall.tsv").open("w", encoding="utf8") as f:
        f.write("kb\tthreshold\teven_precision\teven_recall\teven_rows\todd_precision\todd_recall\todd_rows\n")
        for kb, curve in curves.items():
            for row in curve:
                f.write(f"{kb}\t{row['threshold']}\t{row['even_precision']:.4f}\t{row['even_recall']:.4f}\t"
                        f"{row['even_rows']}\t{row['odd_precision']:.4f}\t{row['odd_recall']:.4f}\t{row['odd_rows']}\n")
    for kb, curve in curves.items():
        if curve:
            precision_recall_figure(curve, thresholds[kb], out / f"precision_recall_{kb}.png", kb)
    lines = [
        "# Discovered names added automatically", "", f"Command: `{command}`", "",
        f"Thresholds per reference set (even half, precision ≥ {target} over ≥ {min_judged} judged rows): "
        + ", ".join(f"{kb} {t}" for kb, t in thresholds.items())
        + f"; rows {len(rows)}, added {len(added_rows)}; judged rows (even, odd): "
        + ", ".join(f"{kb} {c}" for kb, c in judged_counts.items()) + ".", "",
        f"Precision of the added names on the odd half: {odd_precision:.4f} ({odd_count} judged).", "",
        "| kb | odd queries | names added | Hits@1 before | Hits@1 after |", "|---|---|---|---|---|",
    ]
    for kb, m in linking.items():
        lines.append(f"| {kb} | {m['queries']} | {m['names_added']} | {m['hits@1_before']:.4f} | {m['hits@1_after']:.4f} |")
    lines += ["", f"Linking-only gain (UniProt + ChEBI, odd half, Hits@1): {gain:+.4f}"]
    (out / "metrics.md").write_text("\n".join(lines) + "\n", encoding="utf8")
    msg.good(f"thresholds {thresholds}, {len(added_rows)} names added, odd precision {odd_precision:.4f}, "
             f"linking-only gain {gain:+.4f}")
    if headline is not None:
        values = {"synonym_linking_only_gain": round(gain, 4)}
        if odd_count:
            values["synonym_added_names_precision"] = round(odd_precision, 4)
        update_headline(headline, values, command)


if __name__ == "__main__":
    run_cli(main)
