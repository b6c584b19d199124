"""Feasibility probe (task 2), even half only: for short mentions without an exact match, would a
prefix / Schwartz-Hearst short-form match + a reference-set prior (entity with more names first) rank the gold first?
usage: python -m experiments.short_form_probe even   (results/accuracy_experiments.md, output in
results/accuracy/short_forms/probe_even.txt)"""
import re
import sys
from collections import Counter
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from training.common.bioid import read_mentions, kb_queries, read_secondary_map
from training.evaluation.evaluate import select_documents

half = sys.argv[1]
secondary = read_secondary_map("/work/shared/data/chebi/secondary_to_primary.tsv.gz")
queries = kb_queries(select_documents(read_mentions("/work/shared/data/bioid/mentions.tsv.gz"), half), "chebi", secondary, None)
linker = KnowledgeBaseLinker.from_disk("/work/main/training_output/linkers/chebi")
ref = linker.reference_set
n_names = Counter(ref.name_entity.tolist())
lower = [n.lower() for n in ref.names]
short = Counter(q.text for q in queries if 2 <= len(q.text) <= 5 and not linker.exact_names.lookup(q.text))
gold = {q.text: q.gold for q in queries}
top1 = {m: c[0].kb_id if c else None for m, c in zip(short, linker.link(list(short), top_k=1))}
def sh(sf):
    chars = [c for c in sf.lower() if c.isalnum()]
    return re.compile(r"(?:^|[^a-z0-9])" + re.escape(chars[0]) + "".join(".*" + re.escape(c) for c in chars[1:]))
stats = Counter()
for m, occ in short.most_common():
    for kind, pat in (("prefix", None), ("sh", sh(m))):
        if kind == "prefix":
            cand = [i for i, n in enumerate(lower) if n.startswith(m.lower()) and len(n) > len(m)]
        else:
            cand = [i for i, n in enumerate(lower) if pat.search(n)]
        ents = sorted({int(ref.name_entity[i]) for i in cand}, key=lambda e: (-n_names[e], e))
        first = ref.kb_ids[ents[0]] if ents else None
        stats[kind, "gold_first"] += occ * (first in gold[m])
        stats[kind, "linker_first"] += occ * (top1[m] in gold[m])
        stats[kind, "both"] += occ * (first in gold[m] and top1[m] in gold[m])
    stats["occ"] += occ
print(half, len(short), "short strings without exact match", dict(stats))
