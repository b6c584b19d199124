#!/bin/bash
# The exact_fill measurements (results/accuracy_experiments.md, "exact_fill"); run from the worktree root.
# One job at a time, one thread. Baselines are deterministic; the linkers are the shipped, read-only artifacts.
set -e
PY="env OMP_NUM_THREADS=1 /work/venv/bin/python"
M=/work/shared/data/bioid/mentions.tsv.gz
for HALF in even odd all; do
  $PY -m training.evaluate --kb chebi --reference /work/main/corpus/reference/chebi.tsv.gz --mentions $M \
    --chebi-secondary /work/shared/data/chebi/secondary_to_primary.tsv.gz \
    --systems exact,rapidfuzz,tfidf3,tfidf,nseen --linker /work/main/training_output/linkers/chebi --no-figure \
    --documents $HALF --output results/accuracy/exact_fill/chebi_$HALF \
    --variant fill_char:exact_fill=char --variant fill_sparse:exact_fill=sparse \
    --variant nosc:exact_short_cut=false --variant shipped_again:exact_fill=none
  $PY -m training.evaluate --kb uniprot --reference /work/main/corpus/reference_hgnc/uniprot.tsv.gz --mentions $M \
    --systems exact,rapidfuzz,tfidf,nseen --linker /work/main/training_output/linkers/uniprot_hgnc --no-figure \
    --documents $HALF --output results/accuracy/exact_fill/uniprot_hgnc_$HALF \
    --variant fill_char:exact_fill=char --variant fill_sparse:exact_fill=sparse \
    --variant nosc:exact_short_cut=false --variant shipped_again:exact_fill=none
done
