"""Uncached linking speed of settings variants, interleaved rounds; prints median and best q/s.
usage: python -m experiments.exact_fill_speed LINKER_DIR KB_PREFIX ROUNDS spec [spec ...]  (spec = label:k=v,...)
(the measurement behind results/accuracy_experiments.md, "Speed" of exact_fill)"""
import csv, gzip, statistics, sys, time
from dataclasses import replace
from training.linker.settings_spec import parse_variant
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker

linker_dir, prefix, rounds, specs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
with gzip.open("/work/shared/data/bioid/mentions.tsv.gz", "rt") as f:
    strings = sorted({r["mention"] for r in csv.DictReader(f, delimiter="\t") if prefix in r["ids"]})
linker = KnowledgeBaseLinker.from_disk(linker_dir)
variants = []
for spec in specs:
    label, s = parse_variant(spec, linker.settings)
    variants.append((label, linker.with_settings(replace(s, cache_size=0))))
variants[0][1].link(strings, top_k=10)  # warm-up (page faults of the memory-mapped arrays)
speeds = {label: [] for label, _ in variants}
for _ in range(rounds):
    for label, l in variants:
        t = time.perf_counter()
        l.link(strings, top_k=10)
        speeds[label].append(len(strings) / (time.perf_counter() - t))
print(f"{len(strings)} distinct strings, {rounds} rounds")
for label, v in speeds.items():
    print(f"{label}: median {statistics.median(v):.0f} q/s, best {max(v):.0f} q/s")
