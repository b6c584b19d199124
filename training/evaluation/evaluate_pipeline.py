"""End-to-end evaluation of an assembled pipeline on held-out Bio-ID captions.

    python -m training.evaluation.evaluate_pipeline training_output/pipeline corpus/ner/dev.spacy results/pipeline \\
        --chebi-secondary corpus/sources/chebi/secondary_to_primary.tsv.gz \\
        --equivalence corpus/sources/bioid/equivalence_classes.json.gz [--taxa uniprot_taxa.tsv] \\
        [--documents even|odd|all] [--headline results/headline.json]

The dev DocBin is the one `training.ner.ner_corpus` writes: gold entities in `doc.ents`, every gold UniProt/ChEBI
link in `doc.user_data["links"]` and every Bio-ID mention in `doc.user_data["mentions"]` (for an older DocBin,
pass the release's `--mentions` file instead). Views, each as precision / recall / F:

- **Bio-ID scoring** (`training.common.bioid_scoring`): ids compared through the release's equivalence classes
  (`--equivalence`; UniProt ~ NCBI Gene, ChEBI ~ PubChem), at span level (a predicted (span, id) is right if
  the span is a gold mention's and the id is in the class of one of its gold ids) and at caption level (the
  set of class ids per caption), for `protein_gene` (UniProt + NCBI Gene gold) and `chemical`. Every predicted
  id counts in the precision, also those on un-normalized gold mentions (`protein:Flag`) and on NER false
  positives. With `span._.kb_xrefs`, scored twice: primary id `kb_id`, and `ncbigene` (a GENE span's NCBI Gene
  xref in place of its UniProt id).
- **linking only on gold spans** (`training.evaluation.linking_views`): the pipeline without its NER on every gold
  protein/gene/chemical span: P/R/F with the classes, all UniProt gold spans with out-of-KB ones as misses, the
  share of un-normalized protein/gene mentions left unlinked, and (with `span._.kb_taxon` and `--taxa`) the
  organism confusion table on gold UniProt spans.
- the earlier views: (span, id) without classes on UniProt/ChEBI gold only (end to end and linking only),
  and **NER only**: exact-span P/R/F per label and on the spans routed to a reference set.

`--documents even|odd` keeps the even- or odd-numbered articles (choose settings on one, confirm on the other).
Writes `OUT/metrics.json` (with the command line) and `OUT/metrics.md`; with `--headline`, merges
`e2e_precision`, `e2e_f`, `nil_unlinked_share` and `uniprot_all_gold_linking_only` into that file.
"""
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

import spacy
import typer
from spacy.language import Language
from spacy.scorer import Scorer
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from wasabi import msg

from training.common.bioid import (BioIDFormatError, CaptionContext, Mention, gold_ids, in_document_half, panel_contexts,
                                   read_secondary_map)
from training.common.bioid_scoring import (CATEGORY_OF_TYPE, EquivalenceClasses, GoldMention, SpanKey, caption_scores, category_of,
                                           gold_by_span, prf, span_scores, to_curie)
from training.common.headline import command_line, update_headline
from .linking_views import linking_only_views
from .organism_eval import TaxaFileError, confusion_markdown, read_taxa
from .organism_table import per_organism_markdown
from .pipeline_outputs import (PRIMARY_MODES, SpanOutput, doc_mentions, gold_span_docs, has_taxa, has_xrefs,
                               predicted_outputs, run_without_ner, span_output)
from spacy_nseen.progress import progress_iter
from training.data.uniprot_secondary import read_uniprot_secondary_map

KBS = ("uniprot", "chebi")
# (doc index, start char, end char, kb) -> gold ids
GoldKey = Tuple[int, int, int, str]


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
    """Collect the gold links of every doc (ids of the same span merged; retired ids mapped with `secondary`)."""
    gold: Dict[GoldKey, Set[str]] = defaultdict(set)
    for i, doc in enumerate(docs):
        if "links" not in doc.user_data:
            raise typer.BadParameter("the dev docs carry no gold links: make them with training.ner.ner_corpus")
        for start, end, etype, ids in doc.user_data["links"]:
            m = Mention("", "", "", "", int(start), int(end), doc.text[start:end], etype, tuple(ids))
            for kb in KBS:
                ids_kb = gold_ids(m, kb, secondary or None)
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


def category_labels(linker, kb_category: Dict[str, str]) -> Dict[str, Dict[str, str]]:
    """RETURNS: category -> {Bio-ID entity type -> label} for the linking-only gold spans.

    A gold span gets its own type's label (protein → PROTEIN, gene → GENE) if the linker routes that label to
    a reference set of the category; otherwise the first label the linker routes to such a set.
    """
    out: Dict[str, Dict[str, str]] = {}
    for etype, category in CATEGORY_OF_TYPE.items():
        routed = [label for label, kb in linker.kbs.items() if kb and kb_category.get(kb) == category]
        if routed:
            out.setdefault(category, {})[etype] = etype.upper() if etype.upper() in routed else routed[0]
    return out


def reference_ids(linker) -> Dict[str, Set[str]]:
    """RETURNS (Dict[str, Set[str]]): reference set name -> its entity CURIEs."""
    return {kb: set(linker.linkers[kb].reference_set.kb_ids) for kb in linker.kb_names if kb in linker.linkers}


def doc_contexts(docs: Sequence[Doc]) -> List[CaptionContext]:
    """RETURNS (List[CaptionContext]): per doc, the texts of the other docs of its article (`user_data["pmc_id"]`)
    and of its figure's other panels (`user_data["caption_id"]`, see `figure_of`)."""
    keys = [(str(doc.user_data.get("pmc_id", i)), doc.user_data.get("caption_id")) for i, doc in enumerate(docs)]
    return panel_contexts([(a, None if c is None else str(c)) for a, c in keys], [doc.text for doc in docs])


def with_contexts(docs: List[Doc], texts: Optional[List[CaptionContext]]) -> List[Doc]:
    """Give each doc the other texts of its article and figure as organism evidence (`doc._.article_texts`,
    `doc._.figure_texts`, when the pipeline's linker registers them), as a caller with whole articles would."""
    if texts is not None and Doc.has_extension("article_texts"):
        for doc, context in zip(docs, texts):
            doc._.article_texts = context.article_texts
            if Doc.has_extension("figure_texts"):
                doc._.figure_texts = context.figure_texts
    return docs


def bioid_views(nlp: Language, linker, gold_docs: List[Doc], pred_docs: List[Doc], mentions: List[GoldMention],
                equiv: EquivalenceClasses, taxa: Optional[Dict[str, int]],
                batch_size: int, article_of: Optional[List[CaptionContext]] = None) -> Tuple[Dict[str, object], Dict[SpanKey, SpanOutput]]:
    """The end-to-end and linking-only scores as Bio-ID's scorer counts them (span and caption level).

    RETURNS: the scores, and the linker's answer on every gold span (for the earlier linking-only view).
    """
    modes = PRIMARY_MODES if has_xrefs() else PRIMARY_MODES[:1]
    gold = gold_by_span(mentions, equiv)
    predicted = predicted_outputs(pred_docs)
    e2e: Dict[str, object] = {}
    for mode in modes:
        pred = {k: i for k, o in predicted.items() for i in [o.primary(mode)] if i}
        e2e[mode] = {"span": span_scores(pred, gold, equiv), "caption": caption_scores(pred, gold, equiv)}
    ids = reference_ids(linker)
    kb_category = {kb: category_of(next(iter(v))) for kb, v in ids.items() if v}
    labels = category_labels(linker, kb_category)
    spans: Dict[SpanKey, str] = {}
    for m in mentions:
        category = CATEGORY_OF_TYPE.get(m.entity_type)
        cats = {category_of(to_curie(i)) for i in m.ids if not m.is_nil} - {None}
        for c in sorted(cats) or ([category] if m.is_nil and category else []):
            label = labels.get(c, {}).get(m.entity_type) or next(iter(labels.get(c, {}).values()), None)
            if label and m.key not in spans:
                spans[m.key] = label
    span_docs, span_keys = gold_span_docs(nlp, [d.text for d in gold_docs], spans)
    if article_of is not None:
        with_contexts(span_docs, [article_of[keys[0][0]] if keys else CaptionContext([], []) for keys in span_keys])
    linked: Dict[SpanKey, SpanOutput] = {}
    for doc, keys in zip(run_without_ner(nlp, span_docs, batch_size), span_keys):
        for ent, key in zip(doc.ents, keys):
            linked[key] = span_output(ent)
    known = set().union(*ids.values()) if ids else set()
    views = linking_only_views(mentions, linked, equiv, known, modes, taxa, with_taxa=has_taxa(),
                               texts=[d.text for d in gold_docs])
    return {"primary_modes": list(modes), "end_to_end": e2e, "linking_only": views,
            "gold_spans": {c: len(v) for c, v in gold.items()}, "linked_gold_spans": len(linked)}, linked


def _prf_rows(name: str, scores: Dict[str, Dict[str, float]]) -> List[str]:
    return [f"| {name} | {c} | {s['p']:.3f} | {s['r']:.3f} | {s['f']:.3f} | {s['tp']} | {s['predicted']} | {s['gold']} |"
            for c, s in scores.items()]


def bioid_markdown(metrics: Dict[str, object]) -> List[str]:
    """Markdown lines of the Bio-ID-scored views."""
    b = metrics["bioid"]
    lines = ["## Bio-ID scoring (equivalence classes: " + str(metrics["equivalence"]) + ")", "",
             "Span level: a predicted (span, id) is right if the span is a gold mention's and the id is in the same "
             "class as one of its gold ids. Caption level: the set of class ids per caption. Categories: "
             "protein_gene (UniProt + NCBI Gene ids), chemical (ChEBI + PubChem ids).", "",
             "| view | category | P | R | F | TP | predicted | gold |", "|---|---|---|---|---|---|---|---|"]
    for mode in b["primary_modes"]:
        for level in ("span", "caption"):
            lines += _prf_rows(f"end to end, {level} level, primary id {mode}", b["end_to_end"][mode][level])
    lo = b["linking_only"]
    for mode, scores in lo["scores"].items():
        lines += _prf_rows(f"linking only (gold spans), primary id {mode}", scores)
    u, nil = lo["uniprot_all_gold"], lo["nil"]
    lines += ["", "Linking only on gold spans:", "",
              f"- all UniProt gold spans, out-of-KB ones as misses: **{u['share']:.3f}** ({u['right']}/{u['spans']}; "
              f"gold ids only, no classes: {u['share_strict']:.3f}; in-KB spans: {u['share_in_kb']:.3f} of {u['spans_in_kb']})",
              f"- un-normalized (NIL) protein/gene gold mentions left unlinked: **{nil['share']:.3f}** "
              f"({nil['unlinked']}/{nil['mentions']}; " + ", ".join(
                  f"{t} {v['share']:.3f} of {v['mentions']}" for t, v in nil["by_type"].items()) + ")",
              f"- un-normalized chemical gold mentions left unlinked: {lo['nil_chemical']['share']:.3f} "
              f"({lo['nil_chemical']['unlinked']}/{lo['nil_chemical']['mentions']})"]
    for mode, scores in lo["scores"].items():
        lines.append(f"- recall on normalized gold links (primary id {mode}): "
                     + ", ".join(f"{c} {s['r']:.3f}" for c, s in scores.items()))
    causes = lo.get("uniprot_miss_causes")
    if causes:
        lines += ["", "Every gold UniProt span by outcome (linking only; the cause of each miss):", "",
                  "| outcome | spans | share | most frequent mentions |", "|---|---|---|---|"]
        lines += [f"| {cause} | {c['spans']} | {c['share']:.3f} | "
                  + ", ".join(f"`{text}` {k}".replace("|", "\\|") for text, k in c["mentions"]) + " |" for cause, c in causes.items()]
        if all("gold_organism" in c for c in causes.values()):
            organisms = list(next(iter(causes.values()))["gold_organism"])
            lines += ["", "The same spans by the gold id's organism (`several`: gold ids of several organisms; "
                      "`other/unknown`: no gold id in the reference set):", "",
                      "| outcome | " + " | ".join(organisms) + " |", "|---" * (len(organisms) + 1) + "|"]
            lines += [f"| {cause} | " + " | ".join(str(c["gold_organism"][o]) for o in organisms) + " |"
                      for cause, c in causes.items()]
    org = lo["organism"]
    if org is None:
        lines += ["", "Organism assignment: not scored (the pipeline writes no `span._.kb_taxon`, or no `--taxa`)."]
    else:
        lines += ["", f"Organism assignment on gold UniProt spans: accuracy {org['accuracy_covered']:.3f} on the "
                  f"{org['spans_gold_covered']} spans of the five organisms, {org['accuracy']:.3f} on the "
                  f"{org['spans_gold_known']} with a known gold taxon ({org['spans']} spans).", ""]
        lines += confusion_markdown(org)
    if lo.get("per_organism"):
        lines += [""] + per_organism_markdown(lo["per_organism"])
    return lines + [""]


def markdown(metrics: Dict[str, object]) -> str:
    """Render the views as Markdown tables."""
    lines = [f"# End-to-end evaluation: `{metrics['model']}` on `{metrics['dev']}`", "",
             f"{metrics['n_docs']} captions from {metrics['n_articles']} held-out articles "
             f"(documents: {metrics['documents']}); {metrics['n_gold_links']} gold links (span, UniProt/ChEBI ids).", ""]
    lines += bioid_markdown(metrics)
    lines += ["## (span, id) without equivalence classes, UniProt/ChEBI gold only (the earlier view)", "",
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


def headline_values(bioid: Dict[str, object]) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): the figures this command puts into `results/headline.json`."""
    span = bioid["end_to_end"]["kb_id"]["span"]["all"]  # type: ignore[index]
    lo = bioid["linking_only"]
    values = {"e2e_precision": span["p"], "e2e_f": span["f"], "nil_unlinked_share": lo["nil"]["share"],  # type: ignore[index]
              "uniprot_all_gold_linking_only": lo["uniprot_all_gold"]["share"]}  # type: ignore[index]
    if lo.get("per_organism"):  # type: ignore[union-attr]
        values["uniprot_other_organisms_recall"] = lo["per_organism"]["other_organisms_recall"]  # type: ignore[index]
    if lo.get("organism"):  # type: ignore[union-attr]
        values["uniprot_gold_organism_accuracy"] = lo["organism"]["accuracy"]  # type: ignore[index]
    return values


def evaluate_pipeline(
    model: str = typer.Argument(..., help="Pipeline directory or installed package name"),
    dev: Path = typer.Argument(..., help="Dev DocBin from training.ner.ner_corpus"),
    output: Path = typer.Argument(..., help="Output directory for metrics.json and metrics.md"),
    chebi_secondary: Optional[Path] = typer.Option(None, help="secondary_id<TAB>primary_id TSV (ChEBI gold ids)"),
    uniprot_secondary: Optional[Path] = typer.Option(
        None, help="UniProt's retired accessions: sec_ac.txt or a secondary_id<TAB>primary_id TSV; gold and "
                   "predicted ids are both mapped to the current accession"),
    equivalence: Optional[Path] = typer.Option(
        None, "--equivalence", "--equivalences",
        help="The scored release's equivalence_classes.json.gz (without it, only identical ids match)"),
    mentions: Optional[Path] = typer.Option(
        None, "--mentions", help="Bio-ID mentions TSV the DocBin was made from (only for DocBins made before "
                                 "training.ner.ner_corpus stored every mention)"),
    taxa: Optional[Path] = typer.Option(None, "--taxa", help="kb_id<TAB>taxon_id TSV: organism of the gold UniProt ids"),
    documents: str = typer.Option("all", "--documents", help="Only the even- or odd-numbered documents: all, even or odd"),
    headline: Optional[Path] = typer.Option(None, "--headline", help="Merge the headline figures into this JSON "
                                                                     "(e.g. results/headline.json; needs --documents all)"),
    batch_size: int = typer.Option(64, help="Docs per batch"),
    article_context: bool = typer.Option(True, "--article-context/--no-article-context",
                                         help="Give each caption the other captions of its article (doc._.article_texts) as organism evidence"),
) -> None:
    """P/R/F of (span, id) end to end as Bio-ID scores it, beside NER-only and linking-only (gold spans) scores."""
    t0 = time.time()
    command = command_line("training.evaluation.evaluate_pipeline")
    if headline is not None and documents != "all":
        raise typer.BadParameter("--headline figures are for all dev articles: use --documents all")
    nlp = spacy.load(model)
    linker = find_linker(nlp)
    try:
        secondary = read_secondary_map(chebi_secondary) if chebi_secondary else {}
        if uniprot_secondary is not None and not uniprot_secondary.exists():
            msg.warn(f"{uniprot_secondary}: not found (a mirror without UniProt's sec_ac.txt); retired accessions "
                     "are not mapped (put the file at the mirror's uniprot_other/uniprot_sec_ac.txt and fetch again)")
        elif uniprot_secondary is not None:
            secondary.update(read_uniprot_secondary_map(uniprot_secondary))
        equiv = EquivalenceClasses.from_file(equivalence, secondary) if equivalence else EquivalenceClasses((), secondary)
        taxon_of = read_taxa(taxa) if taxa else None
        all_docs = list(DocBin().from_disk(dev).get_docs(nlp.vocab))
        gold_docs = [d for d in all_docs if in_document_half(str(d.user_data.get("pmc_id", "")), documents)]
        gold_mentions = doc_mentions(gold_docs, mentions)
    except (BioIDFormatError, TaxaFileError, ValueError) as e:
        msg.fail(str(e), exits=1)
    if not gold_docs:
        msg.fail(f"No dev docs left with --documents {documents}", exits=1)
    gold = read_gold(gold_docs, secondary)
    known = {kb: ids for kb, ids in reference_ids(linker).items() if kb in KBS}
    in_kb = {k: bool(ids & known.get(k[3], set())) for k, ids in gold.items()}

    # end to end
    t_pipe = time.time()
    article_of = doc_contexts(gold_docs) if article_context else None
    docs = with_contexts([nlp.make_doc(d.text) for d in gold_docs], article_of)
    pred_docs = list(progress_iter(nlp.pipe(docs, batch_size=batch_size),
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

    # Bio-ID scoring, and linking only on gold spans (one linker run serves both linking-only views)
    bioid, linked = bioid_views(nlp, linker, gold_docs, pred_docs, gold_mentions, equiv, taxon_of, batch_size, article_of)
    old_linked = {(*k, kb): o.kb_id for k, o in linked.items() if o.kb_id for kb in [kb_of(o.kb_id)] if kb}
    linking_only = link_scores({k: v for k, v in old_linked.items() if k in gold}, gold, in_kb)

    metrics = {
        "command": command,
        "model": model,
        "dev": str(dev),
        "documents": documents,
        "equivalence": str(equivalence) if equivalence else None,
        "equivalence_classes": equiv.n_classes,
        "taxa": str(taxa) if taxa else None,
        "n_docs": len(gold_docs),
        "n_articles": len({d.user_data.get("pmc_id") for d in gold_docs}),
        "n_gold_links": len(gold),
        "n_gold_mentions": len(gold_mentions),
        "pipeline": nlp.pipe_names,
        "kbs": linker.kbs,
        "bioid": bioid,
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
    if headline is not None:
        update_headline(headline, headline_values(bioid), command)
    e2e = bioid["end_to_end"]["kb_id"]["span"]["all"]
    lo = bioid["linking_only"]
    msg.good(f"End to end (Bio-ID, span level): P {e2e['p']:.3f} R {e2e['r']:.3f} F {e2e['f']:.3f}; "
             f"UniProt all gold linking only {lo['uniprot_all_gold']['share']:.3f}; NIL unlinked {lo['nil']['share']:.3f}; "
             f"NER F {ner['ents_f']:.3f}",
             f"Wrote {output}/metrics.json and {output}/metrics.md" + (f"; updated {headline}" if headline else ""))


if __name__ == "__main__":
    typer.run(evaluate_pipeline)
