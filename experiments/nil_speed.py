"""What the NIL decision costs in linking speed: the same workload with `nil_decision` off and on, interleaved.

    python -m experiments.nil_speed --linker uniprot=training_output/linkers/uniprot_multi \\
        --linker chebi=training_output/linkers/chebi --mentions ../shared/data/bioid/mentions.tsv.gz \\
        --rounds 3 --output results/nil_speed.md

The workload: the distinct Bio-ID mention strings of each reference set (protein/gene → uniprot, chemical →
chebi), linked uncached (`KnowledgeBaseLinker.link`) and decided (`verdicts`: the NIL model's probability and the
threshold when `nil_decision` is on; the best candidate's score when off), as the component does. Rounds alternate
off/on after one warm-up pair; each round clears the linkers' caches. One thread.
"""
import argparse
import csv
import gzip
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Dict, List, Tuple

ROUTES = {"uniprot": ("protein", "gene"), "chebi": ("chemical",)}


def workload(path: Path, kb: str, limit: int) -> List[str]:
    """RETURNS (List[str]): up to `limit` distinct mention strings of the entity types routed to `kb`."""
    csv.field_size_limit(sys.maxsize)
    seen: Dict[str, None] = {}
    with gzip.open(path, "rt", encoding="utf8") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if row["entity_type"] in ROUTES[kb] and row["mention"].strip():
                seen.setdefault(row["mention"], None)
                if len(seen) >= limit:
                    break
    return list(seen)


def one_round(linkers: Dict[str, object], texts: Dict[str, List[str]], nil: bool, threshold: float) -> Tuple[int, float]:
    """RETURNS: mentions linked and seconds, with the NIL decision on or off."""
    n, seconds = 0, 0.0
    for kb, base in linkers.items():
        linker = base.with_settings(replace(base.settings, nil_decision=nil))
        linker.clear_cache()
        start = time.perf_counter()
        for i in range(0, len(texts[kb]), 256):
            batch = texts[kb][i : i + 256]
            results = linker.link(batch, top_k=5)
            linker.verdicts(batch, results, None, threshold)
        seconds += time.perf_counter() - start
        n += len(texts[kb])
    return n, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--linker", action="append", required=True, help="KB=DIR (uniprot or chebi)")
    parser.add_argument("--mentions", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=5000, help="distinct mentions per reference set")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threshold", type=float, default=0.14)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker

    linkers = {}
    for spec in args.linker:
        kb, _, path = spec.partition("=")
        linkers[kb] = KnowledgeBaseLinker.from_disk(path)
    texts = {kb: workload(args.mentions, kb, args.limit) for kb in linkers}
    one_round(linkers, texts, False, args.threshold)  # warm-up pair: page in the indexes
    one_round(linkers, texts, True, args.threshold)
    rates: Dict[bool, List[float]] = {False: [], True: []}
    for _ in range(args.rounds):
        for nil in (False, True):
            n, seconds = one_round(linkers, texts, nil, args.threshold)
            rates[nil].append(n / seconds)
            print(f"nil_decision={nil}: {n / seconds:.0f} mentions/s", flush=True)
    off, on = statistics.median(rates[False]), statistics.median(rates[True])
    command = "python -m experiments.nil_speed " + " ".join(sys.argv[1:])
    lines = [
        "# Linking speed with and without the NIL decision", "",
        f"Command: `{command}`", "",
        f"Workload: {', '.join(f'{len(t)} distinct {kb} mentions' for kb, t in texts.items())} (Bio-ID), uncached, "
        "one thread; rounds alternate off/on after a warm-up pair.", "",
        "| nil_decision | mentions/s per round | median |", "| --- | --- | --- |",
        f"| off | {', '.join(f'{r:.0f}' for r in rates[False])} | {off:.0f} |",
        f"| on | {', '.join(f'{r:.0f}' for r in rates[True])} | {on:.0f} |", "",
        f"On / off (medians): **{on / off:.3f}** (the issue allows a loss of at most 10 %: ≥ 0.90).", "",
    ]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
