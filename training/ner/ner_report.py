"""NER report on the held-out dev articles: per-label P/R/F, PROTEIN/GENE/CHEMICAL confusion, routed F.

    python -m training.ner.ner_report training_output/ner/model-best corpus/ner/dev.spacy results/ner \\
        --train corpus/ner/train.spacy --train-log training_output/ner/train_log.jsonl \\
        --headline results/headline.json

Two gold views, both by exact character offsets (a predicted span counts only if start, end and label match):

- `bioid` (the headline view): the Bio-ID mentions themselves (`doc.user_data["mentions"]`, written by
  `training.ner.ner_corpus`), labelled and de-overlapped by the corpus rule (label priority, then longest, then
  earliest) on characters, not tokens. It does not depend on the tokenizer, so models with different
  tokenizers are scored against the same gold; a mention inside a token can never be found.
- `corpus`: the entities of the dev DocBin, i.e. what `spacy evaluate` scores (misaligned mentions widened to
  whole tokens by `ner_corpus --alignment expand`).

Also written: spans routed to UniProt (PROTEIN + GENE) and to ChEBI (CHEMICAL) scored ignoring the label inside a
route, ORGANISM recall, gold mentions whose boundaries fall inside the model's tokens (train and dev), and the
learning curve (dev F vs step, from the `spacy.ConsoleLogger.v3` JSONL file). Output: `OUT/metrics.json`,
`OUT/metrics.md` (with the command line), `OUT/learning_curve.png`; `--headline` merges `ner_f`,
`ner_uniprot_routed_f`, `ner_chemical_f` and `ner_organism_recall` (bioid view) into the headline file.
"""
import json
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import spacy
import typer
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from wasabi import msg

from . import bio_tokenizer  # noqa: F401  (registers the tokenizer callback named in the model's config)
from training.common.bioid import DOCUMENT_HALVES, in_document_half
from training.common.headline import command_line, update_headline
from .ner_corpus import DEFAULT_LABELS, parse_labels
from .organism_view import consistent_organism_gold

SpanKey = Tuple[int, int, int, str]  # (doc index, start char, end char, label)
ROUTES: Dict[str, Tuple[str, ...]] = {"uniprot": ("PROTEIN", "GENE"), "chebi": ("CHEMICAL",)}
CONFUSION_LABELS = ("PROTEIN", "GENE", "CHEMICAL")
HEADLINE_KEYS = {"ner_f": ("all", "f"), "ner_uniprot_routed_f": ("uniprot", "f"),
                 "ner_chemical_f": ("CHEMICAL", "f"), "ner_organism_recall": ("ORGANISM", "r")}


def prf(tp: int, n_pred: int, n_gold: int) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): precision, recall, F and the counts (0.0 when undefined)."""
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": round(p, 4), "r": round(r, 4), "f": round(f, 4), "tp": tp, "pred": n_pred, "gold": n_gold}


def resolve_overlaps(mentions: Iterable[Tuple[int, int, str]], priority: Sequence[str]) -> List[Tuple[int, int, str]]:
    """Keep non-overlapping character spans by label priority, then length, then start (the corpus rule).

    mentions (Iterable[Tuple[int, int, str]]): (start, end, label); labels not in `priority` are dropped.
    priority (Sequence[str]): Labels, most important first.
    RETURNS (List[Tuple[int, int, str]]): The kept spans, sorted by start.
    """
    rank = {label: i for i, label in enumerate(priority)}
    ordered = sorted((m for m in mentions if m[2] in rank and m[1] > m[0]),
                     key=lambda m: (rank[m[2]], -(m[1] - m[0]), m[0]))
    kept: List[Tuple[int, int, str]] = []
    for m in ordered:
        if all(m[1] <= k[0] or m[0] >= k[1] for k in kept):
            kept.append(m)
    return sorted(kept)


def bioid_gold(docs: Sequence[Doc], labels: Dict[str, str]) -> Set[SpanKey]:
    """The Bio-ID mentions of each doc as labelled, de-overlapped character spans.

    docs (Sequence[Doc]): Docs from `training.ner.ner_corpus` (`user_data["mentions"]`).
    labels (Dict[str, str]): Bio-ID type -> NER label, in overlap priority order.
    RETURNS (Set[SpanKey]): (doc index, start, end, label).
    """
    priority = list(dict.fromkeys(labels.values()))
    gold: Set[SpanKey] = set()
    for i, doc in enumerate(docs):
        mentions = doc.user_data.get("mentions")
        if mentions is None:
            raise ValueError("the dev docs have no user_data['mentions']: rebuild them with training.ner.ner_corpus")
        spans = [(int(s), int(e), labels[t]) for s, e, t, *_ in mentions if t in labels]
        gold.update((i, s, e, label) for s, e, label in resolve_overlaps(spans, priority))
    return gold


def doc_spans(docs: Sequence[Doc]) -> Set[SpanKey]:
    """RETURNS (Set[SpanKey]): the entities of each doc as (doc index, start char, end char, label)."""
    return {(i, e.start_char, e.end_char, e.label_) for i, doc in enumerate(docs) for e in doc.ents}


def span_scores(pred: Set[SpanKey], gold: Set[SpanKey]) -> Dict[str, Dict[str, float]]:
    """Overall, per-label and per-route P/R/F of exact spans.

    RETURNS (Dict[str, Dict[str, float]]): "all", each label, and each route of `ROUTES` (spans whose label is in
        the route, the label inside it ignored).
    """
    out = {"all": prf(len(pred & gold), len(pred), len(gold))}
    for label in sorted({k[3] for k in pred | gold}):
        p = {k for k in pred if k[3] == label}
        g = {k for k in gold if k[3] == label}
        out[label] = prf(len(p & g), len(p), len(g))
    for route, route_labels in ROUTES.items():
        p = {k[:3] for k in pred if k[3] in route_labels}
        g = {k[:3] for k in gold if k[3] in route_labels}
        out[route] = prf(len(p & g), len(p), len(g))
    return out


def confusion(pred: Set[SpanKey], gold: Set[SpanKey], labels: Sequence[str] = CONFUSION_LABELS) -> Dict[str, Dict[str, int]]:
    """Gold label (rows) against the predicted label of the exactly matching span.

    RETURNS (Dict[str, Dict[str, int]]): gold label -> {predicted label in `labels`, "other" (another label),
        "missed" (no predicted span with these offsets): count}.
    """
    pred_label = {k[:3]: k[3] for k in pred}
    table = {g: {**{p: 0 for p in labels}, "other": 0, "missed": 0} for g in labels}
    for key in gold:
        if key[3] not in table:
            continue
        got = pred_label.get(key[:3])
        column = "missed" if got is None else got if got in labels else "other"
        table[key[3]][column] += 1
    return table


def misaligned(nlp: Language, docs: Iterable[Doc], labels: Dict[str, str],
               predicted: Optional[Sequence[Doc]] = None) -> Dict[str, int]:
    """Gold mentions whose start or end falls inside a token of `nlp`'s tokenizer (strict alignment fails).

    predicted (Optional[Sequence[Doc]]): The pipeline's output for the same docs, in order: then also count the
        misaligned mentions an entity matches exactly (a component after the NER, `nseen_glued_names`, can split a
        token and tag the name inside it).
    RETURNS (Dict[str, int]): "mentions" (of the labelled types), "misaligned", "misaligned_<LABEL>", and with
        `predicted` "misaligned_found".
    """
    counts: Counter = Counter({"mentions": 0, "misaligned": 0})
    if predicted is not None:
        counts["misaligned_found"] = 0
    for i, doc in enumerate(docs):
        tokens = nlp.make_doc(doc.text)
        found = set() if predicted is None else {(e.start_char, e.end_char) for e in predicted[i].ents}
        for s, e, t, *_ in doc.user_data.get("mentions", []):
            if t not in labels:
                continue
            counts["mentions"] += 1
            if tokens.char_span(int(s), int(e), alignment_mode="strict") is None:
                counts["misaligned"] += 1
                counts[f"misaligned_{labels[t]}"] += 1
                if (int(s), int(e)) in found:
                    counts["misaligned_found"] += 1
    return dict(sorted(counts.items()))


def organism_consistent_scores(docs: Sequence[Doc], pred: Set[SpanKey], gold: Set[SpanKey]) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): P/R/F of the predicted ORGANISM spans against the consistently labelled view
    (`training.ner.organism_view`: every occurrence of a name Bio-ID labels ORGANISM in the same article)."""
    view = consistent_organism_gold(docs, gold)
    organisms = {k for k in pred if k[3] == "ORGANISM"}
    return prf(len(organisms & view), len(organisms), len(view))


def read_train_log(path: Path) -> List[Dict[str, float]]:
    """Read a `spacy.ConsoleLogger.v3` JSONL file.

    RETURNS (List[Dict[str, float]]): one row per evaluation: step, epoch, score, ents_f/p/r (0..1).
    """
    rows = []
    for line in path.read_text(encoding="utf8").splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        scores = entry.get("scores", {})
        rows.append({"step": entry["step"], "epoch": entry["epoch"], "score": entry["score"],
                     **{k: round(float(scores[k]) / 100, 4) for k in ("ents_f", "ents_p", "ents_r") if k in scores}})
    return rows


def plot_learning_curve(rows: List[Dict[str, float]], path: Path, title: str) -> None:
    """Write dev F (and P, R) against the training step as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    steps = [r["step"] for r in rows]
    for key, style in (("ents_f", "-o"), ("ents_p", "--"), ("ents_r", ":")):
        if all(key in r for r in rows):
            ax.plot(steps, [r[key] for r in rows], style, label=key.replace("ents_", "dev "))
    ax.set_xlabel("training step")
    ax.set_ylabel("score (dev articles, corpus view)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _table(header: List[str], rows: List[List[str]]) -> List[str]:
    return ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)] + ["| " + " | ".join(r) + " |" for r in rows]


def markdown(metrics: Dict[str, object]) -> str:
    """RETURNS (str): The report as Markdown."""
    views: Dict[str, Dict[str, Dict[str, float]]] = metrics["views"]  # type: ignore[assignment]
    half = metrics.get("documents", "all")
    which = "" if half == "all" else f", {half}-numbered articles"
    lines = [f"# NER on the held-out dev articles ({metrics['dev_docs']} captions{which})", "",
             f"Command: `{metrics['command']}`", "", f"Model: `{metrics['model']}`; dev: `{metrics['dev']}`.",
             "Exact character spans. `bioid`: the Bio-ID mentions (de-overlapped on characters, tokenizer-independent; "
             "the headline view); `corpus`: the dev DocBin's entities (what `spacy evaluate` scores).", ""]
    keys = ["all"] + sorted(k for k in views["bioid"] if k not in ("all", *ROUTES)) + list(ROUTES)
    rows = []
    for key in keys:
        row = [key if key not in ROUTES else f"routed to {key} ({' + '.join(ROUTES[key])})"]
        for view in ("bioid", "corpus"):
            s = views[view].get(key)
            row += [f"{s['p']:.3f} / {s['r']:.3f} / **{s['f']:.3f}**" if s else "–", str(s["gold"]) if s else "–"]
        rows.append(row)
    lines += _table(["spans", "bioid P / R / F", "gold", "corpus P / R / F", "gold"], rows) + [""]
    consistent = metrics.get("organism_consistent")
    if isinstance(consistent, dict):
        lines += ["ORGANISM against a consistently labelled view (training.ner.organism_view: the bioid ORGANISM "
                  "spans plus every other occurrence of a name the same article labels ORGANISM): "
                  f"P {consistent['p']:.3f} / R **{consistent['r']:.3f}** / F {consistent['f']:.3f} "
                  f"({consistent['gold']} gold spans).", ""]
    lines += ["## Confusion (bioid view): gold label → predicted label of the span with the same offsets", ""]
    table = metrics["confusion"]
    columns = list(CONFUSION_LABELS) + ["other", "missed"]
    lines += _table(["gold \\ predicted"] + columns,
                    [[g] + [str(table[g][c]) for c in columns] for g in CONFUSION_LABELS]) + [""]
    lines += ["## Gold mentions misaligned with the model's tokens", "",
              "Mentions (of the labelled types) whose start or end falls inside a token "
              "(`doc.char_span(start, end, alignment_mode=\"strict\")` is None), and of those the ones an entity of the "
              "model matches exactly (its components after the NER split glued names off: `nseen_glued_names`):", ""]
    mis = metrics["misaligned"]
    lines += _table(["split", "mentions", "misaligned", "share", "misaligned, found exactly"],
                    [[name, str(c["mentions"]), str(c["misaligned"]), f"{c['misaligned'] / max(c['mentions'], 1):.3f}",
                      str(c["misaligned_found"]) if "misaligned_found" in c else "–"]
                     for name, c in mis.items()]) + [""]
    curve = metrics.get("learning_curve")
    if curve:
        lines += ["## Learning curve", "", "![dev F vs step](learning_curve.png)", ""]
        lines += _table(["step", "epoch", "dev P", "dev R", "dev F"],
                        [[str(r["step"]), str(r["epoch"]), f"{r.get('ents_p', 0):.3f}", f"{r.get('ents_r', 0):.3f}",
                          f"{r.get('ents_f', 0):.3f}"] for r in curve]) + [""]
    return "\n".join(lines)


def headline_values(metrics: Dict[str, object]) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): the figures this command puts into `results/headline.json` (bioid view)."""
    bioid = metrics["views"]["bioid"]  # type: ignore[index]
    return {key: bioid[name][stat] for key, (name, stat) in HEADLINE_KEYS.items() if name in bioid}


def headline_summary(values: Dict[str, float]) -> str:
    """RETURNS (str): The headline figures in words; a label the dev set lacks (e.g. no ORGANISM gold in a
    small sample) is reported as absent, not as a zero."""
    names = {"ner_f": "NER F", "ner_uniprot_routed_f": "routed to UniProt F", "ner_chemical_f": "CHEMICAL F",
             "ner_organism_recall": "ORGANISM recall"}
    return ", ".join(f"{label} {values[key]:.3f}" if key in values else f"{label} n/a (no gold)"
                     for key, label in names.items())


def ner_report(
    model: Path = typer.Argument(..., help="Trained NER pipeline (e.g. training_output/ner/model-best)"),
    dev: Path = typer.Argument(..., help="Dev DocBin from training.ner.ner_corpus"),
    output: Path = typer.Argument(..., help="Output directory (metrics.json, metrics.md, learning_curve.png)"),
    train: Optional[Path] = typer.Option(None, "--train", help="Train DocBin, for its misaligned-mention count"),
    train_log: Optional[Path] = typer.Option(None, "--train-log", help="spacy.ConsoleLogger.v3 JSONL of the training"),
    labels: str = typer.Option(DEFAULT_LABELS, help="type=LABEL pairs in overlap priority order (as ner_corpus)"),
    batch_size: int = typer.Option(64, help="Captions per nlp.pipe batch"),
    headline: Optional[Path] = typer.Option(None, "--headline", help="Merge ner_f, ner_uniprot_routed_f, "
                                                                     "ner_chemical_f, ner_organism_recall here"),
    documents: str = typer.Option("all", "--documents",
                                  help="all, or the even- or odd-numbered articles (by pmc_id) to choose and confirm settings"),
) -> None:
    """Score a NER model on the dev articles and write the report (and the headline figures)."""
    command = command_line("training.ner.ner_report")
    if documents not in DOCUMENT_HALVES:
        raise typer.BadParameter(f"--documents must be one of {DOCUMENT_HALVES}, got {documents!r}")
    if headline is not None and documents != "all":
        raise typer.BadParameter("--headline figures are for all dev articles: use --documents all")
    label_map = parse_labels(labels)
    nlp = spacy.load(model)
    gold_docs = [d for d in DocBin().from_disk(dev).get_docs(nlp.vocab)
                 if in_document_half(str(d.user_data.get("pmc_id", "")), documents)]
    pred_docs = list(nlp.pipe((d.text for d in gold_docs), batch_size=batch_size))
    pred = doc_spans(pred_docs)
    gold = {"bioid": bioid_gold(gold_docs, label_map), "corpus": doc_spans(gold_docs)}
    mis = {"dev": misaligned(nlp, gold_docs, label_map, pred_docs)}
    if train is not None:
        mis = {"train": misaligned(nlp, DocBin().from_disk(train).get_docs(nlp.vocab), label_map), **mis}
    metrics: Dict[str, object] = {
        "command": command, "model": str(model), "dev": str(dev), "dev_docs": len(gold_docs), "documents": documents,
        "views": {name: span_scores(pred, g) for name, g in gold.items()},
        "confusion": confusion(pred, gold["bioid"]), "misaligned": mis,
        "organism_consistent": organism_consistent_scores(gold_docs, pred, gold["bioid"]),
    }
    output.mkdir(parents=True, exist_ok=True)
    if train_log is not None:
        curve = read_train_log(train_log)
        metrics["learning_curve"] = curve
        if curve:
            plot_learning_curve(curve, output / "learning_curve.png", f"NER learning curve ({model.name})")
    metrics["headline"] = headline_values(metrics)
    (output / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf8")
    (output / "metrics.md").write_text(markdown(metrics), encoding="utf8")
    if headline is not None:
        update_headline(headline, metrics["headline"], command)  # type: ignore[arg-type]
    msg.good(f"{headline_summary(metrics['headline'])} (bioid view); wrote {output}/metrics.json, metrics.md"
             + (f"; updated {headline}" if headline else ""))


if __name__ == "__main__":
    typer.run(ner_report)
