#!/usr/bin/env bash
# Peak RSS of the full pipeline with one stored vector per distinct encoder input (this code) against one per name
# (the code before b3f903e), the same encoders, names and everything else: the indexes of the shipped pipeline are
# rebuilt by the older commit (a git worktree), swapped into a copy of the pipeline, and both pipelines tag and link
# the benchmark's 3,000 captions in fresh processes, alternated, with their files in the page cache (the steady state).
# Usage: bash scripts/shared_vectors_ab.sh [rounds]   → results/benchmark_multi/shared_vectors_ab/summary.md
set -euo pipefail
rounds="${1:-2}"
before=cd49d49  # the parent of the change
out=results/benchmark_multi/shared_vectors_ab
work=$(mktemp -d /tmp/nseen_shared_ab.XXXXXX)
mkdir -p "$out"
# the workflow's own build settings (project.yml vars), as build-indexes / build-multi built the shipped indexes
read -r n_trees seed precision threads <<< "$(python -m training.workflow.project_var n_trees seed build_precision threads | tr '\n' ' ')"
short_forms=$(python -m training.workflow.project_var uniprot_short_forms)
git worktree add -q "$work/code" "$before"
trap 'git worktree remove --force "$work/code"; rm -rf "$work"' EXIT
for kb in uniprot chebi; do
  case $kb in
    uniprot) reference=corpus/reference_multi/uniprot.tsv.gz; extra=$short_forms ;;
    chebi) reference=corpus/reference/chebi.tsv.gz; extra= ;;
  esac
  (cd "$work/code" && python -m training.linker.build_linker "$OLDPWD/training_output/$kb/encoder" "$OLDPWD/$reference" \
    "$work/linkers/$kb" --kb-name $kb --n-trees "$n_trees" --threads "$threads" --seed "$seed" --build-precision "$precision" $extra > /dev/null)
done
cp -r training_output/pipeline "$work/pipeline_before"
for kb in uniprot chebi; do
  cp "$work/linkers/$kb/names.ann" "$work/linkers/$kb/names.ann.json" "$work/pipeline_before/nseen_linker/kb_$kb/"
  rm -f "$work/pipeline_before/nseen_linker/kb_$kb/names.ann.rows.npz"
done
python -m training.benchmark.benchmark_texts ../shared/data/bioid/captions.tsv.gz "$work/captions.txt" --max-captions 3000
{
  echo "# One stored vector per distinct encoder input, against one per name"
  echo
  echo "Command: \`bash scripts/shared_vectors_ab.sh $rounds\` ($(date -u +%Y-%m-%dT%H:%M:%SZ)). Each run: the pipeline's linker files read"
  echo "into the page cache, then \`python -m training.benchmark.benchmark_probe PIPELINE --texts <the first 3,000 training"
  echo "captions> --threads 1 --mappings\` in a fresh process. \`names.ann\` of each reference set:"
  echo
  for kb in uniprot chebi; do
    echo "- $kb: $(python -c "import json, sys; m = json.load(open(sys.argv[1])); print(f\"{m['n_items']:,} names, {m.get('n_vectors', m['n_items']):,} stored vectors\")" training_output/pipeline/nseen_linker/kb_$kb/names.ann.json);" \
         "$(du -m "$work/pipeline_before/nseen_linker/kb_$kb/names.ann" | cut -f1) MB before, $(du -m training_output/pipeline/nseen_linker/kb_$kb/names.ann | cut -f1) MB now"
  done
  echo
  echo "| round | index | run seconds | peak RSS (VmHWM, MB) | RssFile (MB) | RssAnon (MB) | resident names.ann, UniProt + ChEBI (MB) |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
} > "$out/summary.md"
for round in $(seq 1 "$rounds"); do
  for case in before now; do
    pipeline=$([ $case = before ] && echo "$work/pipeline_before" || echo training_output/pipeline)
    cat "$pipeline"/nseen_linker/kb_*/*.ann "$pipeline"/nseen_linker/kb_*/*.npz > /dev/null
    python -m training.benchmark.benchmark_probe "$pipeline" --texts "$work/captions.txt" --threads 1 --mappings 2>/dev/null \
      | tail -n 1 > "$out/${case}_${round}.json"
    python -m training.benchmark.probe_row "$out/${case}_${round}.json" "$round" "$case" --resident names.ann >> "$out/summary.md"
  done
done
cat "$out/summary.md"
