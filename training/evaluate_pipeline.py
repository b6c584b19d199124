"""End-to-end evaluation of an assembled pipeline on held-out Bio-ID captions.

    python -m training.evaluate_pipeline training_output/pipeline corpus/ner/dev.spacy results/pipeline \\
        --chebi-secondary corpus/sources/chebi/secondary_to_primary.tsv.gz

The dev DocBin is the one `training.ner_corpus` writes: gold entities in `doc.ents` and every gold link (all
Bio-ID mentions carrying a UniProt or ChEBI id, overlapping ones included) in `doc.user_data["links"]`.
Three views, each as precision / recall / F:

- **end to end**: the pipeline runs on the raw caption text; a predicted (span, id) is correct if its character
  span equals a gold mention's span and its id is one of that mention's gold ids of the same KB (a mention with
  several ids counts once). Every predicted entity with an id counts in the precision (also those NER finds on
  spans whose gold ids are not UniProt/ChEBI, e.g. genes annotated with NCBI Gene ids); every gold link counts
  in the recall, also the out-of-KB ones (non-human proteins), so recall on in-KB links is given too.
- **NER only**: exact-span P/R/F per label against the gold `doc.ents` (spaCy's scorer), plus the
  "routed" spans (label mapped to its KB, so PROTEIN vs GENE confusions don't count).
- **linking only**: the linker alone on the gold spans of every gold link (P = correct / linked,
  R = correct / gold links), overall, per KB and on in-KB links.

Writes `OUT/metrics.json` (with the command line) and `OUT/metrics.md`.
"""
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import spacy
import typer
from spacy.language import Language
from spacy.scorer import Scorer
from spacy.tokens import Doc, DocBin, Span
from spacy.training import Example
from wasabi import msg

from spacy_nseen.progress import progress_iter

from .bioid import Mention, gold_ids, read_secondary_map

KBS = ("uniprot", "chebi")
# (doc index, start char, end char, kb) -> gold ids
GoldKey = Tuple[int, int, int, str]


def prf(tp: int, n_pred: int, n_gold: int) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): precision, recall, F1 and the counts."""
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": round(p, 4), "r": round(r, 4), "f": round(f, 4), "tp": tp, "predicted": n_pred, "gold": n_gold}


def kb_of(kb_id: str) -> Optional[str]:
    """RETURNS (Optional[str]): the reference set a CURIE belongs to."""
    if kb_id.startswith("UniProt:"):
        return "uniprot"
    if kb_id.startswith("CHEBI:"):
        return "chebi"
    return None


def find_linker(nlp: Language):
    """RETURNS: the pipeline's `nseen_linker` component (the first one)."""
    for name in nlp.pipe_names:
        if nlp.get_pipe_meta(name).factory == "nseen_linker":
            return nlp.get_pipe(name)
    raise typer.BadParameter("the pipeline has no nseen_linker component")


def read_gold(docs: List[Doc], secondary: Dict[str, str]) -> Dict[GoldKey, FrozenSet[str]]:
    """Collect the gold links of every doc (ids of the same span merged)."""
    gold: Dict[GoldKey, Set[str]] = defaultdict(set)
    for i, doc in enumerate(docs):
        if "links" not in doc.user_data:
            raise typer.BadParameter("the dev docs carry no gold links: make them with training.ner_corpus")
        for start, end, etype, ids in doc.user_data["links"]:
            m = Mention("", "", "", "", int(start), int(end), doc.text[start:end], etype, tuple(ids))
            for kb in KBS:
                ids_kb = gold_ids(m, kb, secondary if kb == "chebi" else None)
                if ids_kb:
                    gold[(i, int(start), int(end), kb)] |= set(ids_kb)
    return {k: frozenset(v) for k, v in gold.items()}


def link_scores(pred: Dict[GoldKey, str], gold: Dict[GoldKey, FrozenSet[str]], in_kb: Dict[GoldKey, bool]) -> Dict[str, object]:
    """P/R/F of predicted (span, kb) → id against the gold links, overall, per KB and on in-KB gold."""
    out: Dict[str, object] = {}
    for kb in (None,) + KBS:
        p_keys = [k for k in pred if kb is None or k[3] == kb]
        g_keys = [k for k in gold if kb is None or k[3] == kb]
        tp = sum(1 for k in p_keys if k in gold and pred[k] in gold[k])
        scores = prf(tp, len(p_keys), len(g_keys))
        g_in = [k for k in g_keys if in_kb[k]]
        tp_in = sum(1 for k in g_in if k in pred and pred[k] in gold[k])
        scores["r_in_kb"] = round(tp_in / len(g_in), 4) if g_in else 0.0
        scores["gold_in_kb"] = len(g_in)
        out[kb or "all"] = scores
    return out


def gold_span_docs(nlp: Language, docs: List[Doc], gold: Dict[GoldKey, FrozenSet[str]], label_of_kb: Dict[str, str]) -> Tuple[List[Doc], List[List[GoldKey]]]:
    """Docs whose entities are the gold link spans; overlapping spans go to extra copies of the doc."""
    by_doc: Dict[int, List[GoldKey]] = defaultdict(list)
    for key in sorted(gold):
        by_doc[key[0]].append(key)
    out_docs: List[Doc] = []
    out_keys: List[List[GoldKey]] = []
    for i, keys in sorted(by_doc.items()):
        layers: List[Tuple[Doc, List[Span], List[GoldKey], Set[int]]] = []
        for key in keys:
            _, start, end, kb = key
            for layer in layers:
                span = layer[0].char_span(start, end, label=label_of_kb[kb], alignment_mode="expand")
                if span is not None and not (set(range(span.start, span.end)) & layer[3]):
                    break
            else:
                doc = nlp.make_doc(docs[i].text)
                layer = (doc, [], [], set())
                layers.append(layer)
                span = doc.char_span(start, end, label=label_of_kb[kb], alignment_mode="expand")
            if span is None or len(span) == 0:
                continue
            layer[1].append(span)
            layer[2].append(key)
            layer[3].update(range(span.start, span.end))
        for doc, spans, layer_keys, _ in layers:
            order = sorted(range(len(spans)), key=lambda j: spans[j].start)
            doc.ents = [spans[j] for j in order]
            out_docs.append(doc)
            out_keys.append([layer_keys[j] for j in order])
    return out_docs, out_keys


def markdown(metrics: Dict[str, object]) -> str:
    """Render the three views as Markdown tables."""
    lines = [f"# End-to-end evaluation: `{metrics['model']}` on `{metrics['dev']}`", "",
             f"{metrics['n_docs']} captions from {metrics['n_articles']} held-out articles; "
             f"{metrics['n_gold_links']} gold links (span, UniProt/ChEBI ids).", "",
             "## (span, id): end to end and linking only", "",
             "| view | set | P | R | F | R (in-KB gold) | TP | predicted | gold | gold in KB |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for view in ("end_to_end", "linking_only"):
        for name, s in metrics[view].items():  # type: ignore[union-attr]
            lines.append(f"| {view.replace('_', ' ')} | {name} | {s['p']:.3f} | {s['r']:.3f} | {s['f']:.3f} | "
                         f"{s['r_in_kb']:.3f} | {s['tp']} | {s['predicted']} | {s['gold']} | {s['gold_in_kb']} |")
    ner = metrics["ner_only"]
    lines += ["", "## NER only (exact spans)", "", "| label | P | R | F |", "|---|---|---|---|",
              f"| **all** | {ner['ents_p']:.3f} | {ner['ents_r']:.3f} | {ner['ents_f']:.3f} |"]  # type: ignore[index]
    for label, s in sorted(ner["ents_per_type"].items()):  # type: ignore[index]
        lines.append(f"| {label} | {s['p']:.3f} | {s['r']:.3f} | {s['f']:.3f} |")
    lines += ["", "Spans routed to a reference set (label mapped to its KB, PROTEIN/GENE confusions ignored):", "",
              "| KB | P | R | F |", "|---|---|---|---|"]
    for kb, s in ner["routed"].items():  # type: ignore[index]
        lines.append(f"| {kb} | {s['p']:.3f} | {s['r']:.3f} | {s['f']:.3f} |")
    lines += ["", f"Command: `{metrics['command']}`", ""]
    return "\n".join(lines)


def evaluate_pipeline(
    model: str = typer.Argument(..., help="Pipeline directory or installed package name"),
    dev: Path = typer.Argument(..., help="Dev DocBin from training.ner_corpus"),
    output: Path = typer.Argument(..., help="Output directory for metrics.json and metrics.md"),
    chebi_secondary: Optional[Path] = typer.Option(None, help="secondary_id<TAB>primary_id TSV (ChEBI gold ids)"),
    batch_size: int = typer.Option(64, help="Docs per batch"),
) -> None:
    """P/R/F of (span, id) end to end, beside NER-only and linking-only (gold spans) scores."""
    t0 = time.time()
    nlp = spacy.load(model)
    linker = find_linker(nlp)
    secondary = read_secondary_map(chebi_secondary) if chebi_secondary else {}
    gold_docs = list(DocBin().from_disk(dev).get_docs(nlp.vocab))
    gold = read_gold(gold_docs, secondary)
    known = {kb: set(linker.linkers[kb].reference_set.kb_ids) for kb in linker.kb_names if kb in KBS}
    in_kb = {k: bool(ids & known.get(k[3], set())) for k, ids in gold.items()}

    # end to end
    t_pipe = time.time()
    pred_docs = list(progress_iter(nlp.pipe((d.text for d in gold_docs), batch_size=batch_size),
                                   "pipeline on the dev docs", total=len(gold_docs), unit="docs"))
    pipe_seconds = time.time() - t_pipe
    pred: Dict[GoldKey, str] = {}
    for i, doc in enumerate(pred_docs):
        for ent in doc.ents:
            kb = kb_of(ent.kb_id_)
            if kb is not None:
                pred[(i, ent.start_char, ent.end_char, kb)] = ent.kb_id_
    end_to_end = link_scores(pred, gold, in_kb)

    # NER only
    examples = [Example(p, g) for p, g in zip(pred_docs, gold_docs)]
    ner = Scorer.score_spans(examples, "ents")
    ner["ents_per_type"] = {k: {m: round(v, 4) for m, v in s.items()} for k, s in (ner["ents_per_type"] or {}).items()}
    routed: Dict[str, object] = {}
    for kb in linker.kb_names:
        p_set = {(i, e.start_char, e.end_char) for i, d in enumerate(pred_docs) for e in d.ents if linker.kbs.get(e.label_) == kb}
        g_set = {(i, e.start_char, e.end_char) for i, d in enumerate(gold_docs) for e in d.ents if linker.kbs.get(e.label_) == kb}
        routed[kb] = prf(len(p_set & g_set), len(p_set), len(g_set))
    ner["routed"] = routed

    # linking only (gold spans)
    label_of_kb = {}
    for label, kb in linker.kbs.items():
        label_of_kb.setdefault(kb, label)
    span_docs, span_keys = gold_span_docs(nlp, gold_docs, {k: v for k, v in gold.items() if k[3] in label_of_kb}, label_of_kb)
    linked: Dict[GoldKey, str] = {}
    for doc, keys in zip(linker.pipe(span_docs, batch_size=batch_size), span_keys):
        for ent, key in zip(doc.ents, keys):
            if ent.kb_id_:
                linked[key] = ent.kb_id_
    linking_only = link_scores(linked, gold, in_kb)

    metrics = {
        "command": " ".join(["python -m training.evaluate_pipeline"] + sys.argv[1:]),
        "model": model,
        "dev": str(dev),
        "n_docs": len(gold_docs),
        "n_articles": len({d.user_data.get("pmc_id") for d in gold_docs}),
        "n_gold_links": len(gold),
        "pipeline": nlp.pipe_names,
        "kbs": linker.kbs,
        "end_to_end": end_to_end,
        "linking_only": linking_only,
        "ner_only": ner,
        "pipeline_seconds": round(pipe_seconds, 2),
        "words_per_second": round(sum(len(d) for d in pred_docs) / pipe_seconds, 1) if pipe_seconds else None,
        "seconds": round(time.time() - t0, 2),
    }
    output.mkdir(parents=True, exist_ok=True)
    (output / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf8")
    (output / "metrics.md").write_text(markdown(metrics), encoding="utf8")
    e2e = end_to_end["all"]
    msg.good(f"End to end: P {e2e['p']:.3f} R {e2e['r']:.3f} F {e2e['f']:.3f} (R in-KB {e2e['r_in_kb']:.3f}); "
             f"NER F {ner['ents_f']:.3f}; linking only R {linking_only['all']['r']:.3f}",
             f"Wrote {output}/metrics.json and {output}/metrics.md")


if __name__ == "__main__":
    typer.run(evaluate_pipeline)
