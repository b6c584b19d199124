#!/usr/bin/env bash
# Time and peak RSS of the shipped pipeline at several `nlp.pipe` batch sizes: the benchmark's 3,000 captions tagged
# and linked in fresh processes, sizes alternated round after round, the linker files in the page cache (the
# steady state), so that the configured `[nlp] batch_size` is chosen on measurements.
# Usage: bash scripts/batch_size_ab.sh [rounds] [sizes]   → results/benchmark_multi/batch_size_ab/summary.md
set -euo pipefail
rounds="${1:-2}"
sizes="${2:-48 24}"
out=results/benchmark_multi/batch_size_ab
work=$(mktemp -d /tmp/nseen_batch_ab.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
pipeline=training_output/pipeline
python -m training.benchmark.benchmark_texts ../shared/data/bioid/captions.tsv.gz "$work/captions.txt" --max-captions 3000
{
  echo "# The full pipeline at several batch sizes"
  echo
  echo "Command: \`bash scripts/batch_size_ab.sh $rounds \"$sizes\"\` ($(date -u +%Y-%m-%dT%H:%M:%SZ)). Each run: the pipeline's linker"
  echo "files read into the page cache, then \`python -m training.benchmark.benchmark_probe $pipeline --texts <the first 3,000"
  echo "training captions> --threads 1 --batch-size N\` in a fresh process."
  echo
  echo "| round | batch size | run seconds | peak RSS (VmHWM, MB) | RssFile (MB) | RssAnon (MB) |"
  echo "| --- | --- | --- | --- | --- | --- |"
} > "$out/summary.md"
for round in $(seq 1 "$rounds"); do
  for size in $sizes; do
    cat "$pipeline"/nseen_linker/kb_*/*.ann "$pipeline"/nseen_linker/kb_*/*.npz > /dev/null
    python -m training.benchmark.benchmark_probe "$pipeline" --texts "$work/captions.txt" --threads 1 --batch-size "$size" \
      2>/dev/null | tail -n 1 > "$out/batch${size}_${round}.json"
    python -m training.benchmark.probe_row "$out/batch${size}_${round}.json" "$round" "$size" >> "$out/summary.md"
  done
done
cat "$out/summary.md"
