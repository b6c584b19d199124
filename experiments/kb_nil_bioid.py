"""The knowledge-base NIL model (`build-kb`'s, `spacy_nseen.linker.kb_nil`) of the shipped linkers, on a held-out
part of each knowledge base and on the Bio-ID gold mentions, beside the shipped NIL models (issue 55).

    python -m experiments.kb_nil_bioid --linker uniprot=training_output/linkers/uniprot_multi \\
        --linker chebi=training_output/linkers/chebi --shipped uniprot=training_output/nil/uniprot.json \\
        --shipped chebi=training_output/nil/chebi.json --mentions corpus/sources/bioid/mentions.tsv.gz \\
        --captions corpus/sources/bioid/captions.tsv.gz --equivalence corpus/sources/bioid/equivalence_classes.json.gz \\
        --chebi-secondary corpus/sources/chebi/secondary_to_primary.tsv.gz \\
        --cell-lines corpus/organisms/cell_lines.json.gz --output results/custom_kb_nil/shipped_kbs

For each linker a NIL model is fitted from its names alone, as `build-kb` fits one (2000 entities, a quarter held
out), and its held-out figures are reported. Then the Bio-ID gold mentions are linked as `tune_nil` links them
(`training.tuning.tune_nil.collect`: the component's predict path, organisms assigned, no abbreviation lexicon) and
each model's probability that the best entity is right is scored against the gold ids: ROC AUC and average
precision, and precision / recall / NIL mentions left unlinked at each model's own threshold, on even and odd
documents separately. Nothing is fitted or chosen on Bio-ID here; the shipped models were recalibrated on the even
documents (tune-nil), so their odd-document figures are the fair comparison.
"""

import json
import sys
from pathlib import Path
from typing import Dict, List

import numpy
import typer

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.linker.kb_nil import train_kb_nil
from spacy_nseen.linker.nil_decision import NilModel
from spacy_nseen.linker.nil_metrics import at_threshold, average_precision, roc_auc
from spacy_nseen.organisms.assign import OrganismAssigner
from spacy_nseen.organisms.cell_lines import CellLineTable
from training.common.bioid import read_captions, read_secondary_map
from training.common.bioid_scoring import EquivalenceClasses
from training.evaluation.evaluate import select_documents
from training.tuning.tune_nil import collect, decided_probabilities


def figures(model: NilModel, linker: KnowledgeBaseLinker, data: Dict[str, numpy.ndarray]) -> Dict:
    """RETURNS (Dict): a model's figures on one half's linked gold mentions."""
    p = decided_probabilities(model, linker.settings, data["features"])
    labels = data["label"]
    kept = p >= model.threshold
    nil = data["nil"].astype(bool)
    return {
        "mentions": int(len(labels)),
        "right_best": int(labels.sum()),
        "roc_auc": round(roc_auc(p, labels), 4),
        "average_precision": round(average_precision(p, labels), 4),
        **at_threshold(p, labels, model.threshold),
        "nil_mentions_left_unlinked": round(float((~kept[nil]).mean()) if nil.any() else 0.0, 4),
    }


def main(
    linker: List[str] = typer.Option(..., help="kb=linker directory (read only)"),
    shipped: List[str] = typer.Option(..., help="kb=the shipped, tuned NIL model (nil_dir/<kb>.json)"),
    mentions: Path = typer.Option(...),
    captions: Path = typer.Option(...),
    equivalence: Path = typer.Option(...),
    chebi_secondary: Path = typer.Option(None),
    cell_lines: Path = typer.Option(None),
    n_entities: int = typer.Option(2000, help="Entities sampled for the knowledge-base NIL examples"),
    output: Path = typer.Option(Path("results/custom_kb_nil/shipped_kbs")),
) -> None:
    """Fit build-kb's NIL model on each shipped linker; score it and the shipped one on Bio-ID (module doc)."""
    linkers = {kb: KnowledgeBaseLinker.from_disk(path) for kb, _, path in (s.partition("=") for s in linker)}
    shipped_models = {kb: NilModel.from_disk(path) for kb, _, path in (s.partition("=") for s in shipped)}
    results: Dict = {"command": "python -m experiments.kb_nil_bioid " + " ".join(sys.argv[1:]), "kbs": {}}
    kb_models: Dict[str, NilModel] = {}
    for kb, found in linkers.items():
        model, report = train_kb_nil(found, n_entities=n_entities, seed=0)
        kb_models[kb] = model
        results["kbs"][kb] = {"kb_nil_held_out": report.get("held_out"), "kb_nil_threshold": model.threshold,
                              "kb_nil_examples": report["examples"]}
        print(kb, "held out:", json.dumps(report.get("held_out")), flush=True)
    secondary = read_secondary_map(chebi_secondary) if chebi_secondary else {}
    equiv = EquivalenceClasses.from_file(equivalence, {f"CHEBI:{k.split(':')[-1]}": v for k, v in secondary.items()})
    assigner = OrganismAssigner(cell_lines=CellLineTable.from_disk(cell_lines) if cell_lines else None)
    all_captions = read_captions(captions, mentions)
    for half in ("even", "odd"):
        data = collect(linkers, assigner, select_documents(all_captions, half), equiv)
        for kb in linkers:
            results["kbs"][kb][f"bioid_{half}"] = {
                "kb_nil": figures(kb_models[kb], linkers[kb], data[kb]),
                "shipped": figures(shipped_models[kb], linkers[kb], data[kb]),
            }
            print(kb, half, json.dumps(results["kbs"][kb][f"bioid_{half}"]), flush=True)
    output.mkdir(parents=True, exist_ok=True)
    (output / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf8")
    lines = ["# build-kb's NIL model on the shipped knowledge bases (issue 55)", "",
             f"Command: `{results['command']}` (module doc: `experiments/kb_nil_bioid.py`).", "",
             "| kb | NIL model | held-out KB ROC AUC | Bio-ID docs | ROC AUC | avg precision | threshold | precision "
             "| recall | NIL mentions unlinked |", "|---|---|---|---|---|---|---|---|---|---|"]
    for kb, found in results["kbs"].items():
        held = found["kb_nil_held_out"] or {}
        for half in ("even", "odd"):
            for name in ("kb_nil", "shipped"):
                f = found[f"bioid_{half}"][name]
                lines.append(f"| {kb} | {name} | {held.get('roc_auc') if name == 'kb_nil' else ''} | {half} | "
                             f"{f['roc_auc']} | {f['average_precision']} | {f['threshold']} | {f['precision']} | "
                             f"{f['recall']} | {f['nil_mentions_left_unlinked']} |")
    (output / "README.md").write_text("\n".join(lines) + "\n", encoding="utf8")
    print("\n".join(lines))


if __name__ == "__main__":
    typer.run(main)
