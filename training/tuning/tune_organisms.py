"""Choose the organism assigner's weights on one half of the documents (coordinate search).

python -m training.tuning.tune_organisms --cell-lines corpus/cell_lines.json.gz --documents even \\
    --output results/organisms/tuning.json

Each setting in GRID is tried in turn with the others fixed (two passes); the best objective wins (ties: the
earlier value, so the defaults stay unless beaten). The objective (`--objective`): `all` (default), the share of
all gold UniProt mentions assigned right, where a mention of an organism outside the covered five is right when it
is assigned an organism outside them too (the linker then leaves it to the NIL decision instead of linking a
human or mouse ortholog); `covered`, the accuracy over the covered organisms only (the headline figure). Check the result on the
other half with `training.evaluation.evaluate_organisms --documents odd --set ...`.
"""
import json
import shlex
import sys
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import typer
from wasabi import msg

from spacy_nseen.organisms.assign import AssignerSettings, OrganismAssigner
from spacy_nseen.organisms.cell_lines import CellLineTable
from training.common.bioid import read_captions
from training.evaluation.evaluate import select_documents
from training.evaluation.evaluate_organisms import evaluate, organism_inputs, reference_taxa

GRID: Dict[str, Tuple[float, ...]] = {
    "article_weight": (1.5, 0.75, 1.0, 2.0, 3.0),
    "caption_weight": (2.0, 1.0, 3.0, 4.0),
    "figure_weight": (1.0, 0.5, 1.5, 2.0),
    "sentence_weight": (3.0, 1.5, 5.0),
    "near_weight": (8.0, 4.0, 12.0),
    "form_weight": (0.5, 0.25, 1.0, 1.5),
    "prior_weight": (0.3, 0.1, 0.6, 1.0),
    "article_saturation": (1.0, 2.0, 4.0),
}
app = typer.Typer(add_completion=False)


def coordinate_search(score: Any, start: AssignerSettings, passes: int = 2) -> Tuple[AssignerSettings,
                                                                                        List[Dict[str, Any]]]:
    """Coordinate search over GRID. score (Callable[[AssignerSettings], float]).
    RETURNS (Tuple[AssignerSettings, List[Dict[str, Any]]]): The best settings and every run."""
    best, runs, cache = start, [], {}

    def run(settings: AssignerSettings) -> float:
        key = json.dumps(asdict(settings), sort_keys=True)
        if key not in cache:
            cache[key] = score(settings)
            runs.append({"settings": {k: getattr(settings, k) for k in GRID}, "objective": cache[key]})
        return cache[key]

    best_score = run(best)
    for _ in range(passes):
        for name, values in GRID.items():
            for value in values:
                candidate = replace(best, **{name: value})
                value_score = run(candidate)
                if value_score > best_score:
                    best, best_score = candidate, value_score
    return best, runs


OBJECTIVES = ("all", "covered")


def objective_value(results: Dict[str, Any], objective: str) -> float:
    """The tuning objective from `evaluate`'s results: `covered` accuracy, or over `all` mentions (see the module
    doc)."""
    if objective == "covered":
        return float(results["organism_accuracy"])
    covered, other = results["counts"]["covered"], results["counts"]["other"]
    right = results["organism_accuracy"] * covered + results["other_predicted_outside_covered"] * other
    return round(right / (covered + other), 4) if covered + other else 0.0


@app.command()
def main(
    cell_lines: Optional[Path] = typer.Option(None, "--cell-lines", help="Cell line table"),
    documents: str = typer.Option("even", "--documents", help="Half to tune on: even or odd"),
    output: Path = typer.Option(Path("results/organisms/tuning.json"), "--output"),
    objective: str = typer.Option("all", "--objective", help="all (every gold UniProt mention) or covered"),
) -> None:
    """Tune the assigner weights on one half of the Bio-ID documents."""
    if objective not in OBJECTIVES:
        msg.fail(f"--objective must be one of {OBJECTIVES}, got {objective!r}", exits=1)
    command = " ".join(shlex.quote(a) for a in ["python", "-m", "training.tuning.tune_organisms", *sys.argv[1:]])
    captions, mentions, human_names, other_names = organism_inputs()
    taxa = reference_taxa(human_names, other_names)
    caps = select_documents(read_captions(captions, mentions), documents)
    table = CellLineTable.from_disk(cell_lines) if cell_lines is not None else None

    def score(settings: AssignerSettings) -> float:
        acc = evaluate(caps, OrganismAssigner(settings, cell_lines=table), taxa, build_docs=False)
        value = objective_value(acc, objective)
        msg.text(f"{value:.4f} (covered {acc['organism_accuracy']:.4f}, other outside "
                 f"{acc['other_predicted_outside_covered']:.4f}) {[getattr(settings, k) for k in GRID]}")
        return value

    best, runs = coordinate_search(score, AssignerSettings())
    chosen = {k: getattr(best, k) for k in GRID}
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps({"command": command, "documents": documents, "objective": objective,
                                  "chosen": chosen,
                                  "best": max(r["objective"] for r in runs), "runs": runs}, indent=2),
                      encoding="utf8")
    msg.good(f"Best on {documents} ({objective}): {max(r['objective'] for r in runs):.4f} with "
             + ",".join(f"{k}={v}" for k, v in chosen.items()))


if __name__ == "__main__":
    app()
