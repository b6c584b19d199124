"""Would tagging a name wherever its article repeats it raise the NER's figures? A simulation on the dev articles.

`nseen_repeated_mentions` tags the untagged repeats of a PROTEIN/GENE name within one caption. This simulation
widens the scope to the article: after the NER pipeline has tagged every caption, a name (its exact tokens) that
was tagged at least `min_count` times in at least `min_captions` captions of an article, with one of `labels`, is
tagged wherever it occurs untagged in that article's captions, with its most frequent label; `protein_gene` then
labels the new PROTEIN/GENE spans by their caption's context, as in the pipeline. Scored like
`training.ner.ner_report` (exact Bio-ID spans) on either half of the dev articles:

    python -m experiments.article_repeats training_output/ner/model-best corpus/ner/dev.spacy \\
        --documents even --labels PROTEIN,GENE,CHEMICAL

Results: results/ner/experiments/README.md, "Repeats across an article's captions".
"""
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, Iterable, List, Sequence, Set, Tuple

import spacy
import typer
from spacy.tokens import Doc, DocBin, Span

from spacy_nseen.ner.repeated_mentions import untagged_occurrences
from training.common.bioid import DOCUMENT_HALVES, in_document_half
from training.ner.ner_corpus import DEFAULT_LABELS, parse_labels
from training.ner.ner_report import bioid_gold, doc_spans, span_scores

NewSpan = Tuple[int, int, int, str]  # (doc index, start token, end token, label)
app = typer.Typer(add_completion=False)


def article_repeats(docs: Sequence[Doc], articles: Sequence[str], labels: Iterable[str], min_count: int = 2,
                    min_captions: int = 2, min_chars: int = 2) -> List[NewSpan]:
    """The untagged occurrences of each article's repeatedly tagged names (`untagged_occurrences` of the
    caption-level component, with the article's names).

    docs (Sequence[Doc]): tagged captions (one vocab). articles (Sequence[str]): each doc's article id.
    RETURNS (List[NewSpan]): per doc, left to right, the longest name first at each token, none over an entity.
    """
    labels = frozenset(labels)
    by_article: Dict[str, List[int]] = defaultdict(list)
    for i, article in enumerate(articles):
        by_article[article].append(i)
    found: List[NewSpan] = []
    for indices in by_article.values():
        counts: Dict[Tuple[int, ...], Counter] = defaultdict(Counter)
        captions: Dict[Tuple[int, ...], Set[int]] = defaultdict(set)
        for i in indices:
            for ent in docs[i].ents:
                if ent.label_ in labels and len(ent.text) >= min_chars:
                    key = tuple(t.orth for t in ent)
                    counts[key][ent.label_] += 1
                    captions[key].add(i)
        names = {key: c.most_common(1)[0][0] for key, c in counts.items()
                 if sum(c.values()) >= min_count and len(captions[key]) >= min_captions}
        for i in indices:
            found.extend((i, span.start, span.end, span.label_) for span in untagged_occurrences(docs[i], names))
    return found


def with_spans(docs: Sequence[Doc], spans: Iterable[NewSpan]) -> List[Doc]:
    """RETURNS (List[Doc]): copies of `docs` with the new entities added."""
    out = [doc.copy() for doc in docs]
    per_doc: Dict[int, List[NewSpan]] = defaultdict(list)
    for span in spans:
        per_doc[span[0]].append(span)
    for i, new in per_doc.items():
        doc = out[i]
        doc.ents = sorted(list(doc.ents) + [Span(doc, s, e, label=label) for _, s, e, label in new],
                          key=lambda span: span.start)
    return out


@app.command()
def main(model: Path, dev: Path, documents: str = typer.Option("even", help="all, even or odd"),
         labels: str = typer.Option("PROTEIN,GENE,CHEMICAL", help="labels whose names are repeated"),
         min_count: int = 2, min_captions: int = 2) -> None:
    """Print the NER's figures without and with the article-wide repeats."""
    if documents not in DOCUMENT_HALVES:
        raise typer.BadParameter(f"--documents must be one of {DOCUMENT_HALVES}, got {documents!r}")
    nlp = spacy.load(model)
    gold_docs = [d for d in DocBin().from_disk(dev).get_docs(nlp.vocab)
                 if in_document_half(str(d.user_data.get("pmc_id", "")), documents)]
    tagged = list(nlp.pipe((d.text for d in gold_docs), batch_size=64))
    new = article_repeats(tagged, [str(d.user_data.get("pmc_id", "")) for d in gold_docs], labels.split(","),
                          min_count, min_captions)
    repeated = with_spans(tagged, new)
    if "protein_gene" in nlp.pipe_names:
        relabel = nlp.get_pipe("protein_gene")
        repeated = [relabel(doc) for doc in repeated]
    gold = bioid_gold(gold_docs, parse_labels(DEFAULT_LABELS))
    for name, docs in (("NER as shipped", tagged), (f"+ article repeats ({len(new)} spans)", repeated)):
        s = span_scores(doc_spans(docs), gold)
        print(f"{name}: F {s['all']['f']:.4f}, routed to UniProt F {s['uniprot']['f']:.4f} "
              f"(P {s['uniprot']['p']:.3f} / R {s['uniprot']['r']:.3f}), CHEMICAL F {s['CHEMICAL']['f']:.4f}")


if __name__ == "__main__":
    app()
