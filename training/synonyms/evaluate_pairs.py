"""Evaluation 1: pair scoring as in SynonymNet (AUC and MAP) on the held-out entities' synonym pairs.

    python -m training.synonyms.evaluate_pairs corpus/synonyms/uniprot_pairs.json CONTEXTS... \\
        --model training_output/synonyms/uniprot --out results/synonyms/pairs_uniprot [--headline results/headline.json]

Systems: `string_only` (the NSEEN encoder's cosine, the paper's SRN baseline), `context_only` (SynonymNet),
`combined` (the logistic regression of both fitted on the dev entities, saved with the model). On `--split`
(default test: entities never seen in training or in the choice of epoch and combination), for all negatives
and for each kind (`random`, `string_similar`). AUC: `nil_metrics.roc_auc`; AP: average precision over all pairs;
MAP: the mean over anchor names (each pair's first name) of the average precision of its pairs (a positive and its
negatives). Writes `OUT/metrics.json` (with the command) and `OUT/metrics.md`; `--headline` writes
`synonym_auc_gain` (combined - string_only AUC, all negatives).
"""

import json
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import numpy
import typer
from wasabi import msg

from spacy_nseen.linker.nil_metrics import average_precision, roc_auc
from spacy_nseen.synonyms.combination import ScoreCombiner
from spacy_nseen.synonyms.context_layer import load_synonymnet
from training.common.data_errors import run_cli
from training.common.headline import command_line, update_headline
from training.synonyms.make_pairs import read_all_contexts
from training.synonyms.train_synonymnet import name_contexts, score_pairs

SYSTEMS = ("string_only", "context_only", "combined")


def mean_average_precision(anchors: Sequence[str], scores: numpy.ndarray, labels: numpy.ndarray) -> float:
    """RETURNS (float): the mean over anchors with a positive and a negative of the AP of ranking their pairs."""
    rows: Dict[str, List[int]] = defaultdict(list)
    for i, anchor in enumerate(anchors):
        rows[anchor].append(i)
    values = []
    for members in rows.values():
        index = numpy.array(members)
        if 0 < labels[index].sum() < len(index):
            values.append(average_precision(scores[index], labels[index]))
    return float(numpy.mean(values)) if values else float("nan")


def metrics(anchors: Sequence[str], scores: numpy.ndarray, labels: numpy.ndarray) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): auc, ap, map and the pair counts."""
    return {
        "auc": roc_auc(scores, labels),
        "ap": average_precision(scores, labels),
        "map": mean_average_precision(anchors, scores, labels),
        "positives": int(labels.sum()),
        "negatives": int(len(labels) - labels.sum()),
    }


def evaluate(pairs: List[Dict[str, object]], context_scores: numpy.ndarray, combiner: ScoreCombiner) -> Dict[str, Dict[str, Dict[str, float]]]:
    """RETURNS (Dict): negatives subset ("all", "random", "string_similar") -> system -> metrics."""
    string = numpy.array([p["string_score"] for p in pairs], dtype=numpy.float64)
    labels = numpy.array([p["label"] for p in pairs], dtype=numpy.int64)
    kinds = numpy.array([p["kind"] for p in pairs])
    anchors = [str(p["a"]) for p in pairs]
    context = context_scores.astype(numpy.float64)
    systems = {
        "string_only": string,
        "context_only": numpy.nan_to_num(context, nan=-1.0),
        "combined": combiner.probabilities(string, context),
    }
    out: Dict[str, Dict[str, Dict[str, float]]] = {}
    for subset in ("all", "random", "string_similar"):
        keep = numpy.ones(len(pairs), dtype=bool) if subset == "all" else (kinds == "positive") | (kinds == subset)
        out[subset] = {
            name: metrics([a for a, k in zip(anchors, keep) if k], scores[keep], labels[keep]) for name, scores in systems.items()
        }
    return out


def markdown(result: Dict[str, Dict[str, Dict[str, float]]], split: str, command: str, model_info: Dict[str, object]) -> str:
    """RETURNS (str): the results as a Markdown table."""
    lines = [
        f"# Synonym pair scoring ({split} entities)",
        "",
        f"Command: `{command}`",
        "",
        f"Model: loss {model_info.get('loss')}, best epoch {model_info.get('best_epoch')}, dev context AUC "
        f"{model_info.get('dev_context_auc', float('nan')):.4f}",
        "",
        "| negatives | system | AUC | MAP | AP | positives | negatives |",
        "|---|---|---|---|---|---|---|",
    ]
    for subset, systems in result.items():
        for name, m in systems.items():
            lines.append(f"| {subset} | {name} | {m['auc']:.4f} | {m['map']:.4f} | {m['ap']:.4f} | {m['positives']} | {m['negatives']} |")
    return "\n".join(lines) + "\n"


def main(
    pairs_path: Path = typer.Argument(..., help="The pairs file (training.synonyms.make_pairs)"),
    contexts: List[Path] = typer.Argument(..., help="The contexts files the pairs were made from"),
    model: Path = typer.Option(..., "--model", help="The trained SynonymNet directory"),
    out: Path = typer.Option(..., "--out", help="Results directory"),
    split: str = typer.Option("test", help="Which entities: dev or test"),
    headline: Optional[Path] = typer.Option(None, "--headline", help="Write synonym_auc_gain into this JSON"),
) -> None:
    """Score the held-out entities' synonym pairs: string-only, context-only, combined (AUC, MAP)."""
    command = command_line("training.synonyms.evaluate_pairs")
    data = json.loads(pairs_path.read_text(encoding="utf8"))
    pairs = [p for p in data["pairs"] if p["split"] == split]
    layer, extra = load_synonymnet(model)
    pooled = name_contexts(data["names"], read_all_contexts(contexts))
    context_scores = score_pairs(layer, pairs, pooled, int(layer.attrs["shape"]["max_contexts"]))
    combiner = ScoreCombiner.from_json(extra["combination"])
    result = evaluate(pairs, context_scores, combiner)
    model_info = {**extra.get("settings", {}), "best_epoch": extra.get("best_epoch"), "dev_context_auc": extra.get("dev_context_auc")}
    out.mkdir(parents=True, exist_ok=True)
    (out / "metrics.json").write_text(json.dumps({"command": command, "split": split, "model": model_info, "result": result}, indent=2), encoding="utf8")
    (out / "metrics.md").write_text(markdown(result, split, command, model_info), encoding="utf8")
    for name in SYSTEMS:
        m = result["all"][name]
        msg.text(f"{name}: AUC {m['auc']:.4f}  MAP {m['map']:.4f}")
    gain = result["all"]["combined"]["auc"] - result["all"]["string_only"]["auc"]
    msg.good(f"combined - string-only AUC: {gain:+.4f} -> {out}")
    if headline is not None:
        update_headline(headline, {"synonym_auc_gain": round(gain, 4)}, command)


if __name__ == "__main__":
    run_cli(main)
