#!/usr/bin/env bash
# Cold uncached linking with and without the background read-ahead of a linker's files (spacy_nseen/retrieval/page_advice.py),
# alternated, the OS page cache dropped before each run (needs root; without it the runs are warm and say so).
# Then the peak RSS of the full pipeline tagging and linking 3,000 captions in a fresh process (the benchmark's probe):
# page cache dropped with the read-ahead off and on, and with the files already in the page cache and the read-ahead off.
# Usage: bash scripts/prefetch_ab.sh [rounds]   → results/benchmark_multi/prefetch_ab/{none,willneed}_<round>.{json,md}, summary.md
set -euo pipefail
rounds="${1:-2}"
out=results/benchmark_multi/prefetch_ab
mkdir -p "$out"
summary="$out/summary.md"
{
  echo "# Cold uncached linking, read-ahead off (NSEEN_PREFETCH=none) and on (the default), alternated"
  echo
  echo "Command: \`bash scripts/prefetch_ab.sh $rounds\` ($(date -u +%Y-%m-%dT%H:%M:%SZ)); each run: the page cache dropped, then the benchmark's linking section."
  echo
  echo "| round | NSEEN_PREFETCH | page cache dropped | uncached distinct mentions/s | per CPU-second |"
  echo "| --- | --- | --- | --- | --- |"
} > "$summary"
for round in $(seq 1 "$rounds"); do
  for mode in none willneed; do
    sync
    dropped=no
    if echo 3 > /proc/sys/vm/drop_caches 2>/dev/null; then dropped=yes; fi
    NSEEN_PREFETCH=$mode python -m training.benchmark.benchmark \
      --linkers training_output/linkers/uniprot_multi --linkers training_output/linkers/chebi \
      --pipeline training_output/pipeline --config configs/pipeline.cfg \
      --mentions ../shared/data/bioid/mentions.tsv.gz --captions ../shared/data/bioid/captions.tsv.gz \
      --threads 1 --sections linking --no-build --output "$out/${mode}_${round}.json" > /dev/null
    python - "$out/${mode}_${round}.json" "$round" "$mode" "$dropped" >> "$summary" <<'PY'
import json, sys
path, round_, mode, dropped = sys.argv[1:]
run = json.load(open(path))["linking"]["uncached"]["all"]
print(f"| {round_} | {mode} | {dropped} | {run['mentions_per_s']} | {run['mentions_per_cpu_s']} |")
PY
  done
done
texts="$out/captions_3000.txt"
python -m training.benchmark.benchmark_texts ../shared/data/bioid/captions.tsv.gz "$texts" --max-captions 3000
{
  echo
  echo "Peak RSS of the full pipeline (\`python -m training.benchmark.benchmark_probe training_output/pipeline --texts $texts --threads 1\`, the first 3,000 captions of the training release):"
  echo
  echo "| page cache before the process | NSEEN_PREFETCH | run seconds | peak RSS (VmHWM, MB) | RssFile (MB) | RssAnon (MB) |"
  echo "| --- | --- | --- | --- | --- | --- |"
} >> "$summary"
for case in "dropped none" "dropped willneed" "files-read none"; do
  set -- $case
  sync
  if [ "$1" = dropped ]; then echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true; else cat training_output/pipeline/nseen_linker/kb_*/*.ann training_output/pipeline/nseen_linker/kb_*/*.npz > /dev/null; fi
  NSEEN_PREFETCH=$2 python -m training.benchmark.benchmark_probe training_output/pipeline --texts "$texts" --threads 1 2>/dev/null \
    | python -m training.benchmark.probe_row - "$1" "$2" >> "$summary"
done
rm -f "$texts"
cat "$summary"
