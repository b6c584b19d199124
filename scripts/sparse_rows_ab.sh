#!/usr/bin/env bash
# Peak RSS of the full pipeline with the TF-IDF and token rows of names with the same text shared (this code)
# against a row per name (the code before the change): the same pipeline, encoders, indexes and names; only each
# reference set's tfidf.npz and tokens.npz are fitted again by the older commit (a git worktree) in a copy of the
# pipeline. Both pipelines tag and link the benchmark's 3,000 captions in fresh processes, each with its own code,
# alternated, with their files in the page cache (the steady state).
# Usage: bash scripts/sparse_rows_ab.sh [rounds] [older commit]   → results/benchmark_multi/sparse_rows_ab/summary.md
set -euo pipefail
rounds="${1:-2}"
before="${2:-e50fabf}"  # the parent of the change
out=results/benchmark_multi/sparse_rows_ab
work=$(mktemp -d /tmp/nseen_sparse_ab.XXXXXX)
mkdir -p "$out"
git worktree add -q "$work/code" "$before"
trap 'git worktree remove --force "$work/code"; rm -rf "$work"' EXIT
cp -r training_output/pipeline "$work/pipeline_before"
for kb in uniprot chebi; do
  # the older code fits both files on the reference set's names, with the linker's saved sparse_max_df
  (cd "$work/code" && python - "$work/pipeline_before/nseen_linker/kb_$kb" <<'PY'
import csv, gzip, json, sys
from pathlib import Path
from spacy_nseen.retrieval.char_tfidf import CharNgramTfidf
from spacy_nseen.retrieval.word_tfidf import NameTokenIndex
directory = Path(sys.argv[1])
with gzip.open(directory / "reference.tsv.gz", "rt", encoding="utf8") as file_:
    names = [row["name"] for row in csv.DictReader(file_, delimiter="\t", quoting=csv.QUOTE_NONE)]
max_df = json.loads((directory / "linker.json").read_text())["settings"]["sparse_max_df"]
CharNgramTfidf().fit(names).to_disk(directory / "tfidf.npz", rare_max_df=max_df)
NameTokenIndex().fit(names).to_disk(directory / "tokens.npz")
PY
  )
done
python -m training.benchmark.benchmark_texts ../shared/data/bioid/captions.tsv.gz "$work/captions.txt" --max-captions 3000
{
  echo "# TF-IDF and token rows shared by names with the same text, against a row per name"
  echo
  echo "Command: \`bash scripts/sparse_rows_ab.sh $rounds $before\` ($(date -u +%Y-%m-%dT%H:%M:%SZ)). Each run: the pipeline's linker"
  echo "files read into the page cache, then \`python -m training.benchmark.benchmark_probe PIPELINE --texts <the first 3,000"
  echo "training captions> --threads 1 --mappings\` in a fresh process, with the code that wrote its files. File sizes:"
  echo
  for kb in uniprot chebi; do
    for file in tfidf.npz tokens.npz; do
      echo "- $kb \`$file\`: $(du -m "$work/pipeline_before/nseen_linker/kb_$kb/$file" | cut -f1) MB before," \
           "$(du -m "training_output/pipeline/nseen_linker/kb_$kb/$file" | cut -f1) MB now"
    done
  done
  echo
  echo "| round | rows | run seconds | peak RSS (VmHWM, MB) | RssFile (MB) | RssAnon (MB) | resident tfidf.npz + tokens.npz, UniProt + ChEBI (MB) |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
} > "$out/summary.md"
for round in $(seq 1 "$rounds"); do
  for case in before now; do
    if [ $case = before ]; then pipeline="$work/pipeline_before"; code="$work/code"; else pipeline="$PWD/training_output/pipeline"; code="$PWD"; fi
    cat "$pipeline"/nseen_linker/kb_*/*.ann "$pipeline"/nseen_linker/kb_*/*.npz > /dev/null
    (cd "$code" && python -m training.benchmark.benchmark_probe "$pipeline" --texts "$work/captions.txt" --threads 1 --mappings 2>/dev/null) \
      | tail -n 1 > "$out/${case}_${round}.json"
    python -m training.benchmark.probe_row "$out/${case}_${round}.json" "$round" "$case" --resident tfidf.npz \
      --resident tokens.npz >> "$out/summary.md"
  done
done
cat "$out/summary.md"
