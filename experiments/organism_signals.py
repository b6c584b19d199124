"""Three more organism signals, measured before building any of them (issue 14).

The assigner (`spacy_nseen.organisms`) reads species words, cell lines, genotypes and the mention's form in the
caption, its figure and its article. Most of its remaining errors are human/mouse confusions where the caption
itself names no organism and the article's words decide. This command measures three signals a biologist might
also use, each added to the assigner's per-taxon scores of every gold UniProt mention:

- **name membership**: the organisms whose reference names hold the mention's name (case and dashes ignored).
  A name only one organism's entries carry (`Spo20`, `Clb2`: budding yeast) is evidence for it, on the mention
  (`name_weight`) and, summed over the article's other mentions, for the article (`article_name_weight`);
- **caption classifier**: a bag-of-words logistic regression that reads a caption with its organism words
  masked and predicts the organism those words named. It is trained on weak labels only: the captions of the
  *other* half whose organism words name one organism (no gold normalization is read). Its probability, centred
  on the uniform one, is added with `classifier_weight`;
- **host words**: mouse and rat words in a caption that speaks of grafted tumours (`xenograft`, `nude`,
  `NOD/SCID`, `tumour-bearing`, `orthotopic`, ...) name the host of human cells, not the organism of the
  proteins; the assigner's `graft_host_strength` multiplies their strength (shipped: 0; 1 reads them as any
  mouse word). The other two signals are measured on top of the shipped assigner.

Accuracy over mentions of a covered organism, per occurrence, as `evaluate_organisms` counts it. Settings are
read on the even half and confirmed on the odd one.

    python -m experiments.organism_signals --cell-lines corpus/organisms/cell_lines.json.gz \\
        --reference corpus/reference_multi/uniprot.tsv.gz --documents even --output results/organisms/signals/even
"""
import csv
import gzip
import json
import re
import shlex
import sys
from collections import Counter, defaultdict
from dataclasses import asdict, replace
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

import typer
from wasabi import msg

from spacy_nseen.organisms.assign import AssignerSettings, OrganismAssigner
from spacy_nseen.organisms.cell_lines import CellLineTable
from training.common.bioid import DOCUMENT_HALVES, BioIDFormatError, Caption, read_captions
from training.evaluation.evaluate import select_documents
from training.evaluation.evaluate_organisms import (AssignedMention, assign_gold_mentions, organism_inputs,
                                                    reference_taxa)
from training.evaluation.organism_eval import TAXA

app = typer.Typer(add_completion=False)
COVERED: Tuple[int, ...] = tuple(TAXA)
_NAME_NOISE = re.compile(r"[\s\-\u2010\u2011\u2012\u2013_/.,]")


def name_key(name: str) -> str:
    """RETURNS (str): a name compared case- and dash-insensitively (`Spo-20` and `SPO20` meet)."""
    return _NAME_NOISE.sub("", name).casefold()


def read_name_taxa(path: Path) -> Dict[str, FrozenSet[int]]:
    """Read a reference set TSV (`kb_id, name, kind, taxon`; training.data.build_reference_sets).

    RETURNS (Dict[str, FrozenSet[int]]): name key (`name_key`) → the covered taxa whose entries carry it.
    """
    if not path.exists():
        raise BioIDFormatError(f"Reference set not found: {path}. Build it with `spacy project run reference-sets`.")
    taxa: Dict[str, Set[int]] = defaultdict(set)
    try:
        with gzip.open(path, "rt", encoding="utf8", newline="") as f:
            rows = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
            if rows.fieldnames is None or not {"name", "taxon"} <= set(rows.fieldnames):
                raise BioIDFormatError(f"{path}: expected the columns name and taxon, got {rows.fieldnames}.")
            for row in rows:
                taxon = int(row["taxon"])
                if taxon in COVERED:
                    taxa[name_key(row["name"])].add(taxon)
    except (OSError, EOFError, ValueError, csv.Error) as e:
        if isinstance(e, BioIDFormatError):
            raise
        raise BioIDFormatError(f"Could not read {path} ({e}): the file is truncated or not a reference set; "
                               f"build it again.") from e
    return {k: frozenset(v) for k, v in taxa.items()}


def only_taxon(text: str, name_taxa: Mapping[str, FrozenSet[int]]) -> Optional[int]:
    """RETURNS (Optional[int]): the one covered organism whose names hold the text, or None (none or several)."""
    taxa = name_taxa.get(name_key(text), frozenset())
    return next(iter(taxa)) if len(taxa) == 1 else None


def decide(scores: Mapping[int, float], prior_order: Sequence[int]) -> Optional[int]:
    """RETURNS (Optional[int]): the taxon with the highest score; a tie goes to the earlier taxon of the prior."""
    if not scores:
        return None
    order = {t: i for i, t in enumerate(prior_order)}
    return min(scores, key=lambda t: (-scores[t], order.get(t, len(order)), t))


def accuracy(mentions: Sequence[AssignedMention], extra: Sequence[Mapping[int, float]],
             prior_order: Sequence[int]) -> float:
    """RETURNS (float): accuracy over mentions of a covered organism when `extra[i]` is added to mention i's scores."""
    right = total = 0
    for m, add in zip(mentions, extra):
        if not m.covered:
            continue
        scores = dict(m.assigned.scores)
        for taxon, value in add.items():
            scores[taxon] = scores.get(taxon, 0.0) + value
        total += 1
        right += decide(scores, prior_order) in m.gold_taxa
    return round(right / total, 4) if total else 0.0


def name_evidence(mentions: Sequence[AssignedMention], name_taxa: Mapping[str, FrozenSet[int]],
                  name_weight: float, article_name_weight: float) -> List[Dict[int, float]]:
    """Per mention, the name-membership evidence: `name_weight` for its own name's only organism, and
    `article_name_weight` shared among the only organisms of the article's other mentions (one vote per name
    and caption).

    RETURNS (List[Dict[int, float]]): taxon → score to add, one dict per mention.
    """
    votes: Dict[str, Counter] = defaultdict(Counter)
    seen: Set[Tuple[str, str]] = set()
    for m in mentions:
        taxon = only_taxon(m.text, name_taxa)
        if taxon is not None and (m.caption_id, m.text) not in seen:
            seen.add((m.caption_id, m.text))
            votes[m.pmc_id][taxon] += 1
    out: List[Dict[int, float]] = []
    for m in mentions:
        own = only_taxon(m.text, name_taxa)
        others = votes[m.pmc_id].copy()
        if own is not None:
            others[own] -= 1
        total = sum(v for v in others.values() if v > 0)
        add = {t: article_name_weight * v / max(1.0, total) for t, v in others.items() if v > 0}
        if own is not None:
            add[own] = add.get(own, 0.0) + name_weight
        out.append(add)
    return out


def masked_text(assigner: OrganismAssigner, text: str) -> Tuple[str, Dict[int, float]]:
    """RETURNS (Tuple[str, Dict[int, float]]): the text with its organism hits blanked out, and the hits' strength
    per taxon."""
    evidence = assigner.scan(text)
    parts: List[str] = []
    last = 0
    for hit in evidence.hits:
        if hit.start >= last:
            parts.append(text[last:hit.start])
            last = hit.end
    parts.append(text[last:])
    return " ".join(parts), evidence.counts()


def weak_label(counts: Mapping[int, float], labels: Sequence[int]) -> Optional[int]:
    """RETURNS (Optional[int]): the organism a caption's own words name, if one of `labels` has at least twice the
    strength of all others together; else None."""
    strengths = {t: v for t, v in counts.items() if t in labels and v > 0}
    if not strengths:
        return None
    best, value = max(strengths.items(), key=lambda kv: kv[1])
    return best if value >= 2 * (sum(strengths.values()) - value) else None


class CaptionClassifier:
    """Bag of words and word pairs → organism, trained on captions whose organism words name one organism."""

    labels: Tuple[int, ...] = (9606, 10090, 10116, 559292)

    def __init__(self, assigner: OrganismAssigner, c: float = 1.0) -> None:
        self.assigner = assigner
        self.c = c
        self.classes: List[int] = []

    def fit(self, texts: Iterable[str]) -> Dict[int, int]:
        """Train on the weakly labelled texts. RETURNS (Dict[int, int]): training captions per label."""
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.linear_model import LogisticRegression

        docs: List[str] = []
        ys: List[int] = []
        for text in texts:
            masked, counts = masked_text(self.assigner, text)
            label = weak_label(counts, self.labels)
            if label is not None:
                docs.append(masked)
                ys.append(label)
        if len(set(ys)) < 2:
            raise ValueError("The training captions name fewer than two organisms: nothing to learn.")
        self.vectorizer = CountVectorizer(token_pattern=r"(?u)\b\w[\w\-]*\b", ngram_range=(1, 2), min_df=2,
                                          binary=True)
        self.model = LogisticRegression(C=self.c, max_iter=2000)
        self.model.fit(self.vectorizer.fit_transform(docs), ys)
        self.classes = [int(c) for c in self.model.classes_]
        return dict(Counter(ys))

    def centred_probabilities(self, text: str) -> Dict[int, float]:
        """RETURNS (Dict[int, float]): per organism, P(organism | masked text) − 1 / number of organisms."""
        masked, _ = masked_text(self.assigner, text)
        probabilities = self.model.predict_proba(self.vectorizer.transform([masked]))[0]
        return {t: float(p) - 1.0 / len(self.classes) for t, p in zip(self.classes, probabilities)}


def other_half(documents: str) -> str:
    """RETURNS (str): "odd" for "even" and "even" for "odd"."""
    if documents not in ("even", "odd"):
        raise ValueError(f"--documents must be even or odd (the classifier trains on the other half), got {documents!r}")
    return "odd" if documents == "even" else "even"


def measure(captions: Sequence[Caption], documents: str, assigner: OrganismAssigner,
            cell_lines: Optional[CellLineTable], taxa: Mapping[str, int],
            name_taxa: Mapping[str, FrozenSet[int]], weights: Sequence[float]) -> Dict[str, object]:
    """Accuracy of the assigner alone and with each signal at each weight, on one half.

    RETURNS (Dict[str, object]): `baseline`, and per signal a list of {setting: accuracy}.
    """
    test = select_documents(captions, documents)
    mentions = list(assign_gold_mentions(test, assigner, taxa))
    order = [t for t, _ in assigner.settings.prior]
    none = [{} for _ in mentions]
    results: Dict[str, object] = {"mentions": sum(1 for m in mentions if m.covered),
                                  "baseline": accuracy(mentions, none, order)}
    results["name_membership"] = [
        {"name_weight": w, "article_name_weight": a,
         "accuracy": accuracy(mentions, name_evidence(mentions, name_taxa, w, a), order)}
        for w in weights for a in weights]
    classifier = CaptionClassifier(assigner)
    results["classifier_training_captions"] = {str(k): v for k, v in sorted(
        classifier.fit(c.text for c in select_documents(captions, other_half(documents))).items())}
    text_of = {c.caption_id: c.text for c in test}
    probabilities = {cid: classifier.centred_probabilities(text) for cid, text in text_of.items()}
    results["caption_classifier"] = [
        {"classifier_weight": w,
         "accuracy": accuracy(mentions, [{t: w * p for t, p in probabilities[m.caption_id].items()}
                                         for m in mentions], order)}
        for w in weights]
    host: List[Dict[str, object]] = []
    for strength in (0.0, 0.5, 1.0):
        settings = replace(assigner.settings, graft_host_strength=strength)
        scaled = list(assign_gold_mentions(test, OrganismAssigner(settings, cell_lines=cell_lines), taxa))
        host.append({"graft_host_strength": strength, "accuracy": accuracy(scaled, none, order)})
    results["host_words"] = host
    return results


def write_markdown(results: Mapping[str, object], command: str, path: Path) -> None:
    """Write the three signals' tables as Markdown."""
    r: Dict = dict(results)
    lines = [f"# Organism signals on the {r['documents']} half", "", f"Command: `{command}`", "",
             f"{r['mentions']} gold UniProt mentions of a covered organism; the assigner alone: "
             f"**{r['baseline']:.4f}**.", "",
             "## Name membership", "", "| name_weight | article_name_weight | accuracy |", "| --- | --- | --- |"]
    lines += [f"| {x['name_weight']:g} | {x['article_name_weight']:g} | {x['accuracy']:.4f} |"
              for x in r["name_membership"]]
    lines += ["", "## Caption classifier", "",
              f"Trained on the other half's weakly labelled captions: {r['classifier_training_captions']}.", "",
              "| classifier_weight | accuracy |", "| --- | --- |"]
    lines += [f"| {x['classifier_weight']:g} | {x['accuracy']:.4f} |" for x in r["caption_classifier"]]
    lines += ["", "## Host words", "", "| graft_host_strength | accuracy |", "| --- | --- |"]
    lines += [f"| {x['graft_host_strength']:g} | {x['accuracy']:.4f} |" for x in r["host_words"]]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")


@app.command()
def main(
    cell_lines: Optional[Path] = typer.Option(None, "--cell-lines", help="Cell line table (build_cell_lines)"),
    reference: Path = typer.Option(..., "--reference", help="Multi-organism reference set (kb_id, name, kind, taxon)"),
    captions: Optional[Path] = typer.Option(None, "--captions", help="Bio-ID captions TSV (any split)"),
    mentions: Optional[Path] = typer.Option(None, "--mentions", help="Bio-ID mentions TSV (any split)"),
    human_names: Optional[Path] = typer.Option(None, "--human-names", help="uniprot/names.tsv.gz"),
    other_names: Optional[Path] = typer.Option(None, "--other-names", help="names_by_organism.tsv.gz"),
    documents: str = typer.Option("even", "--documents", help="even or odd (the classifier trains on the other)"),
    weights: str = typer.Option("0,0.25,0.5,1", "--weights", help="Comma-separated weights to try"),
    output: Path = typer.Option(..., "--output", help="Output directory"),
) -> None:
    """Measure name membership, a caption classifier and host words as organism evidence on one half."""
    command = " ".join(shlex.quote(a) for a in ["python", "-m", "experiments.organism_signals",
                                                   *sys.argv[1:]])
    if documents not in DOCUMENT_HALVES[1:]:
        msg.fail(f"--documents must be even or odd, got {documents!r}", exits=1)
    try:
        tried = [float(w) for w in weights.split(",") if w.strip()]
    except ValueError:
        msg.fail(f"--weights expects comma-separated numbers, got {weights!r}", exits=1)
    captions, mentions, human_names, other_names = organism_inputs(captions, mentions, human_names, other_names)
    try:
        taxa = reference_taxa(human_names, other_names)
        caps = read_captions(captions, mentions)
        name_taxa = read_name_taxa(reference)
    except (BioIDFormatError, ValueError) as e:
        msg.fail(str(e), exits=1)
    table = CellLineTable.from_disk(cell_lines) if cell_lines is not None else None
    assigner = OrganismAssigner(AssignerSettings(), cell_lines=table)
    results = measure(caps, documents, assigner, table, taxa, name_taxa, tried)
    results.update({"documents": documents, "command": command, "settings": asdict(assigner.settings)})
    output.mkdir(parents=True, exist_ok=True)
    (output / "metrics.json").write_text(json.dumps(results, indent=2), encoding="utf8")
    write_markdown(results, command, output / "metrics.md")
    msg.good(f"{documents}: assigner {results['baseline']:.4f}; results in {output}")


if __name__ == "__main__":
    app()
