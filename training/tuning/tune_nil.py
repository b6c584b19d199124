"""Tune the NIL decision on Bio-ID documents: Platt recalibration per reference set and the operating point.

    python -m training.tuning.tune_nil --linker uniprot=training_output/linkers/uniprot_multi \\
        --linker chebi=training_output/linkers/chebi --cell-lines corpus/organisms/cell_lines.json.gz \\
        --mentions corpus/sources/bioid/mentions.tsv.gz --captions corpus/sources/bioid/captions.tsv.gz \\
        --equivalence corpus/sources/bioid/equivalence_classes.json.gz \\
        --chebi-secondary corpus/sources/chebi/secondary_to_primary.tsv.gz \\
        --out-models training_output/nil --output results/nil

The NIL models were trained on examples made from the reference sets only (`training.linker.train_nil`). Here the
linkers run on the gold spans of Bio-ID captions as the component runs them (abbreviations expanded, the
organism assigned from the caption and its article); each answer is right when its best entity is one of the
mention's gold ids (with the release's equivalence classes), and wrong for un-normalised (`protein:Flag`) or
out-of-KB mentions. On the **even-numbered documents only**, two numbers per reference set are fitted (Platt
scaling of the NIL model's logit, so that `kb_score` is a probability) and one threshold is chosen (the best
F1 of right links); the **odd-numbered documents** confirm them. Writes the recalibrated models
(`<out-models>/<kb>.json`, given to the pipeline by `nil_model` of `[initialize.components.nseen_linker.kb_loaders.<set>]`), the
metrics (ROC AUC, ECE, the NIL share left unlinked, recall) and a reliability diagram and precision-recall
curve (PNG).
"""
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import numpy
import typer
from wasabi import msg

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.linker.settings import LinkerSettings
from spacy_nseen.linker.nil_decision import NilModel, expected_calibration_error, fit_platt, tag_name_rows
from spacy_nseen.pipe.predict import Mention, link_requests, prepare_requests, request_features
from spacy_nseen.organisms.assign import OrganismAssigner
from spacy_nseen.organisms.cell_lines import CellLineTable

from training.common.bioid import caption_contexts, read_captions, read_secondary_map
from training.common.bioid_scoring import EquivalenceClasses, category_of, to_curie
from training.common.data_errors import run_cli
from training.evaluation.evaluate import select_documents
from training.common.headline import update_headline
from training.common.abbreviation_lexicons import SPEC_HELP, LexiconSpecs, lexicon_for_document, read_lexicon_specs

ROUTES = {"protein": "uniprot", "gene": "uniprot", "chemical": "chebi"}
CATEGORY = {"uniprot": "protein_gene", "chebi": "chemical"}
TOP_K = 5
MAX_RECALL_LOSS = 0.03


def roc_auc(scores: numpy.ndarray, labels: numpy.ndarray) -> float:
    """RETURNS (float): the area under the ROC curve (ties count half); 0.5 when one class is missing."""
    labels = numpy.asarray(labels, dtype=bool)
    n_pos, n_neg = int(labels.sum()), int((~labels).sum())
    if not n_pos or not n_neg:
        return 0.5
    order = numpy.argsort(scores, kind="mergesort")
    ranks = numpy.empty(len(scores))
    sorted_scores = numpy.asarray(scores)[order]
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[labels].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def collect(
    linkers: Dict[str, KnowledgeBaseLinker],
    assigner: OrganismAssigner,
    captions: Sequence,
    equivalence: EquivalenceClasses,
    lexicons: LexiconSpecs = (),
) -> Dict[str, Dict[str, list]]:
    """Link every routed gold mention of the captions; per reference set: logits, labels and kinds.

    lexicons (LexiconSpecs): the abbreviation lexicon of each half of the documents (`--abbreviation-lexicon`).
    """
    out: Dict[str, Dict[str, list]] = {kb: defaultdict(list) for kb in linkers}
    for caption, context in zip(captions, caption_contexts(captions)):
        mentions = [m for m in caption.mentions if ROUTES.get(m.entity_type) in linkers]
        if not mentions:
            continue
        # The component's predict path: abbreviations, the organisms of the mentions of sets with taxa, link.
        prepared = prepare_requests(caption.text, [Mention(m.start, m.end, m.text, ROUTES[m.entity_type]) for m in mentions],
                                    lambda kb: linkers[kb].reference_set.entity_taxa is not None, assigner,
                                    article_texts=context.article_texts, figure_texts=context.figure_texts,
                                    lexicon=lexicon_for_document(lexicons, caption.pmc_id))
        for kb in linkers:
            routed = [(m, r) for m, r in zip(mentions, prepared.requests) if r.kb == kb]
            if not routed:
                continue
            linker = linkers[kb]
            linked = link_requests(linker, [r for _, r in routed], top_k=TOP_K)
            for (m, _), link, features in zip(routed, linked, request_features(linker, linked)):
                candidates = link.candidates
                gold = {equivalence.canon(i) for i in m.ids if category_of(to_curie(i)) == CATEGORY[kb]}
                best = equivalence.canon(candidates[0].kb_id) if candidates else None
                out[kb]["features"].append(features)
                out[kb]["case_vetoed"].append(linker.fusion().case_vetoed(link.searched, candidates))
                out[kb]["label"].append(int(best is not None and best in gold))
                out[kb]["normalized"].append(int(bool(gold)))
                out[kb]["nil"].append(int(not gold and all(":" not in i or i.split(":", 1)[0].islower() for i in m.ids)))
                out[kb]["in_kb"].append(int(any(to_curie(i) in linker.reference_set for i in m.ids)))
    return {kb: {k: numpy.asarray(v) for k, v in parts.items()} for kb, parts in out.items()}


def decided_probabilities(
    model: NilModel, settings: LinkerSettings, features: numpy.ndarray, case_vetoed: Optional[numpy.ndarray] = None
) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): the probabilities as the linker decides on them: the model's, and 0 for a tag name
    where the linker never links one (`LinkerSettings.link_tag_names` off) and for a link `case_vetoed` (bool per
    row: `Fusion.case_vetoed`, with `link_case_mismatch` off) marks (`Fusion.verdicts`)."""
    p = model.probabilities(features)
    if not settings.link_tag_names:
        p[tag_name_rows(features)] = 0.0
    if case_vetoed is not None and len(case_vetoed):
        p[numpy.asarray(case_vetoed, dtype=bool)] = 0.0
    return p


def link_prf(probabilities: numpy.ndarray, data: Dict[str, numpy.ndarray], threshold: float) -> Dict[str, float]:
    """Linking-only figures of one reference set at a threshold on the probability."""
    linked = probabilities >= threshold
    right = int((linked & (data["label"] == 1)).sum())
    n_linked, n_gold = int(linked.sum()), int(data["normalized"].sum())
    p = right / n_linked if n_linked else 0.0
    r = right / n_gold if n_gold else 0.0
    nil = data["nil"] == 1
    return {"p": round(p, 4), "r": round(r, 4), "f": round(2 * p * r / (p + r), 4) if p + r else 0.0,
            "right": right, "linked": n_linked, "gold": n_gold,
            "nil_mentions": int(nil.sum()), "nil_unlinked_share": round(float((~linked[nil]).mean()), 4) if nil.any() else None}


def plot_curves(halves: Dict[str, Dict[str, Dict[str, numpy.ndarray]]], models: Dict[str, NilModel], output: Path) -> None:
    """Reliability diagram and precision-recall curve over the threshold, per reference set, odd documents."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], ":", color="grey")
    for kb, data in halves["odd"].items():
        p = models[kb].probabilities(data["features"])
        bins = numpy.minimum((p * 10).astype(int), 9)
        xs = [p[bins == b].mean() for b in range(10) if (bins == b).any()]
        ys = [data["label"][bins == b].mean() for b in range(10) if (bins == b).any()]
        ax.plot(xs, ys, "o-", label=f"{kb} (ECE {expected_calibration_error(p, data['label']):.3f})")
    ax.set_xlabel("kb_score (predicted probability that the id is right)")
    ax.set_ylabel("share of right ids")
    ax.set_title("Reliability, odd-numbered Bio-ID documents")
    ax.legend()
    fig.tight_layout()
    fig.savefig(output / "reliability.png", dpi=100)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(5, 5))
    for kb, data in halves["odd"].items():
        p = models[kb].probabilities(data["features"])
        points = [link_prf(p, data, t) for t in numpy.linspace(0, 0.99, 100)]
        ax.plot([q["r"] for q in points], [q["p"] for q in points], label=kb)
        chosen = link_prf(p, data, models[kb].threshold)
        ax.plot([chosen["r"]], [chosen["p"]], "ko")
    ax.set_xlabel("recall (right links / normalised gold mentions)")
    ax.set_ylabel("precision (right links / links)")
    ax.set_title("Linking only on gold spans, over the threshold (odd docs; dot: shipped)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(output / "precision_recall.png", dpi=100)
    plt.close(fig)


def tune_nil(
    linker: List[str] = typer.Option(..., "--linker", help="KB=linker directory with a nil_model.json (repeat)"),
    mentions: Path = typer.Option(..., help="Bio-ID mentions TSV"),
    captions: Path = typer.Option(..., help="Bio-ID captions TSV"),
    equivalence: Path = typer.Option(..., help="The release's equivalence_classes.json(.gz)"),
    chebi_secondary: Optional[Path] = typer.Option(None, help="ChEBI secondary -> primary ids TSV"),
    cell_lines: Optional[Path] = typer.Option(None, help="Cell line table (organism evidence)"),
    out_models: Path = typer.Option(Path("training_output/nil"), help="Where the recalibrated NIL models go"),
    output: Path = typer.Option(Path("results/nil"), help="Metrics and figures"),
    headline: Optional[Path] = typer.Option(None, help="Write kb_score_ece into this headline JSON"),
    abbreviation_lexicon: Optional[List[str]] = typer.Option(None, "--abbreviation-lexicon", help=SPEC_HELP),
) -> None:
    """Recalibrate the NIL models and choose the threshold on even documents; confirm on odd ones."""
    start = time.time()
    linkers = {}
    for spec in linker:
        kb, _, path = spec.partition("=")
        linkers[kb] = KnowledgeBaseLinker.from_disk(path)
        if linkers[kb].nil_model is None:
            raise typer.BadParameter(f"{path} has no nil_model.json: run python -m training.linker.train_nil first")
    secondary = read_secondary_map(chebi_secondary) if chebi_secondary else {}
    equiv = EquivalenceClasses.from_file(equivalence, {f"CHEBI:{k.split(':')[-1]}": v for k, v in secondary.items()})
    assigner = OrganismAssigner(cell_lines=CellLineTable.from_disk(cell_lines) if cell_lines else None)
    all_captions = read_captions(captions, mentions)
    try:
        lexicons = read_lexicon_specs(abbreviation_lexicon or [])
    except ValueError as err:
        raise typer.BadParameter(str(err)) from None
    halves = {}
    for half in ("even", "odd"):
        chosen = select_documents(all_captions, half)
        halves[half] = collect(linkers, assigner, chosen, equiv, lexicons)
        msg.info(f"{half}: {sum(len(d['label']) for d in halves[half].values())} routed gold mentions linked")
    models: Dict[str, NilModel] = {}
    metrics: Dict[str, Dict] = {"command": "python -m training.tuning.tune_nil " + " ".join(sys.argv[1:])}
    for kb, data in halves["even"].items():
        base = linkers[kb].nil_model
        a, b = fit_platt(base.logits(data["features"]), data["label"])
        models[kb] = NilModel(base.weights, a, b, info={**base.info, "platt": {"fitted_on": "even documents", "a": a, "b": b}})
    # One threshold for all reference sets (the probabilities are calibrated): the best F1 of right links on even docs.
    grid = [round(t, 2) for t in numpy.arange(0.0, 0.96, 0.01)]

    def decided(kb: str, data: Dict[str, numpy.ndarray]) -> numpy.ndarray:
        return decided_probabilities(models[kb], linkers[kb].settings, data["features"], data.get("case_vetoed"))

    def pooled_f(half: str, threshold: float) -> float:
        right = linked = gold = 0
        for kb, data in halves[half].items():
            q = link_prf(decided(kb, data), data, threshold)
            right, linked, gold = right + q["right"], linked + q["linked"], gold + q["gold"]
        p, r = (right / linked if linked else 0.0), (right / gold if gold else 0.0)
        return 2 * p * r / (p + r) if p + r else 0.0

    def pooled(half: str, threshold: float) -> Dict[str, float]:
        right = linked = gold = nil = nil_unlinked = 0
        for kb, data in halves[half].items():
            q = link_prf(decided(kb, data), data, threshold)
            right, linked, gold = right + q["right"], linked + q["linked"], gold + q["gold"]
            if q["nil_unlinked_share"] is not None:
                nil += q["nil_mentions"]
                nil_unlinked += round(q["nil_unlinked_share"] * q["nil_mentions"])
        p, r = (right / linked if linked else 0.0), (right / gold if gold else 0.0)
        return {"threshold": threshold, "p": round(p, 4), "r": round(r, 4), "f": round(2 * p * r / (p + r), 4) if p + r else 0.0,
                "nil_unlinked_share": round(nil_unlinked / nil, 4) if nil else None}

    # The operating point: the best F1 among the thresholds that cost at most MAX_RECALL_LOSS of recall
    # (right links lost to the NIL decision) on the even documents; the sweep is in metrics.json.
    sweep = {half: [pooled(half, t) for t in grid] for half in halves}
    base_recall = pooled("even", 0.0)["r"]
    allowed = [q for q in sweep["even"] if round(base_recall - q["r"], 4) <= MAX_RECALL_LOSS] or sweep["even"]
    threshold = max(allowed, key=lambda q: (q["f"], -q["threshold"]))["threshold"]
    best_f = max(sweep["even"], key=lambda q: (q["f"], -q["threshold"]))["threshold"]
    for kb in models:
        models[kb].threshold = threshold
        out_models.mkdir(parents=True, exist_ok=True)
        models[kb].to_disk(out_models / f"{kb}.json")
    for half, parts in halves.items():
        for kb, data in parts.items():
            raw = linkers[kb].nil_model.probabilities(data["features"])
            p = models[kb].probabilities(data["features"])
            metrics.setdefault(half, {})[kb] = {
                "mentions": int(len(data["label"])),
                "right_at_top": int(data["label"].sum()),
                "roc_auc": round(roc_auc(p, data["label"]), 4),
                "ece_before_recalibration": round(expected_calibration_error(raw, data["label"]), 4),
                "ece": round(expected_calibration_error(p, data["label"]), 4),
                "without_nil_decision": link_prf(numpy.ones(len(p)), data, 0.5),
                "at_threshold": link_prf(decided(kb, data), data, threshold),
            }
        metrics[half]["pooled_f_at_threshold"] = round(pooled_f(half, threshold), 4)
    metrics["threshold"] = threshold
    metrics["threshold_rule"] = f"best pooled F1 on even documents with a recall loss of at most {MAX_RECALL_LOSS}"
    metrics["best_f1_threshold"] = best_f
    metrics["sweep"] = sweep
    metrics["platt"] = {kb: {"a": round(m.platt_a, 4), "b": round(m.platt_b, 4)} for kb, m in models.items()}
    metrics["seconds"] = round(time.time() - start, 1)
    output.mkdir(parents=True, exist_ok=True)
    (output / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
    plot_curves(halves, models, output)
    (output / "metrics.md").write_text(markdown(metrics))
    msg.good(f"threshold {threshold}; metrics in {output}")
    print(markdown(metrics))
    if headline is not None:
        odd = metrics["odd"]
        n = sum(odd[kb]["mentions"] for kb in models)
        ece = sum(odd[kb]["ece"] * odd[kb]["mentions"] for kb in models) / max(1, n)
        update_headline(headline, {"kb_score_ece": round(ece, 4)}, metrics["command"])


def markdown(metrics: Dict) -> str:
    lines = ["# NIL decision and calibrated kb_score", "", f"Command: `{metrics['command']}`", "",
             "Platt recalibration and threshold fitted on the even-numbered documents; the odd-numbered ones confirm.",
             f"Threshold (shared by all reference sets): **{metrics['threshold']}** ({metrics['threshold_rule']}; "
             f"the best F1 alone would be {metrics['best_f1_threshold']}).", "",
             "| half | KB | gold-span mentions | ROC AUC | ECE (raw → calibrated) | P / R / F without NIL | P / R / F at threshold | NIL unlinked (without → with) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for half in ("even", "odd"):
        for kb, m in metrics[half].items():
            if not isinstance(m, dict):
                continue
            w, t = m["without_nil_decision"], m["at_threshold"]
            lines.append(f"| {half} | {kb} | {m['mentions']} | {m['roc_auc']} | {m['ece_before_recalibration']} → {m['ece']} | "
                         f"{w['p']} / {w['r']} / {w['f']} | {t['p']} / {t['r']} / {t['f']} | {w['nil_unlinked_share']} → {t['nil_unlinked_share']} |")
    lines += ["", "Pooled over both reference sets, by threshold (even → odd): P / R / F, NIL left unlinked", "",
              "| threshold | even | odd |", "| --- | --- | --- |"]
    for even, odd in zip(metrics["sweep"]["even"], metrics["sweep"]["odd"]):
        if round(even["threshold"] * 100) % 5 and even["threshold"] != metrics["threshold"]:
            continue  # every 0.05 and the chosen one (the whole 0.01 grid is in metrics.json)
        cell = lambda q: f"{q['p']} / {q['r']} / {q['f']}, {q['nil_unlinked_share']}"  # noqa: E731
        lines.append(f"| {even['threshold']} | {cell(even)} | {cell(odd)} |")
    lines += ["", "Figures: `reliability.png`, `precision_recall.png` (odd documents).", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    run_cli(tune_nil)
