"""Would more annotated captions help the NER? The same training on a share of the training articles.

The NER's targets are missed with every lever tried on the Bio-ID training release. This experiment asks whether
the NER is limited by the amount of annotated text: it writes training sets of whole articles drawn with a seed,
each share nested in the next larger one, for `train-ner`'s command to train on (`--paths.train`), so that the
dev F can be read as a function of the training size:

    python -m experiments.ner_data_size corpus/ner/train.spacy OUT --fraction 0.25 --fraction 0.5

writes `OUT/train_25.spacy`, `OUT/train_50.spacy` and `OUT/sizes.json` (articles, captions and entities of each).
The name lists and glued-name rules stay those of the full training set.

Results: results/ner/experiments/README.md, "More annotated captions".
"""
import json
import random
from pathlib import Path
from typing import Dict, Iterable, List, Sequence, Set

import spacy
import typer
from spacy.tokens import Doc, DocBin

app = typer.Typer(add_completion=False)


def article_of(doc: Doc) -> str:
    """RETURNS (str): The article (PMC id) a training caption comes from, as `training.ner.ner_corpus` wrote it."""
    pmc_id = doc.user_data.get("pmc_id")
    if not pmc_id:
        raise ValueError("A training doc has no user_data['pmc_id']: write the corpus with training.ner.ner_corpus")
    return str(pmc_id)


def nested_article_shares(articles: Iterable[str], fractions: Sequence[float], seed: int) -> Dict[float, Set[str]]:
    """Draw whole articles for each fraction, every smaller share inside every larger one.

    articles (Iterable[str]): The training articles (repeats are ignored).
    fractions (Sequence[float]): Shares of the articles, each in (0, 1].
    seed (int): Seed of the one shuffle all shares are prefixes of.
    RETURNS (Dict[float, Set[str]]): fraction → its articles (at least one).
    """
    for fraction in fractions:
        if not 0.0 < fraction <= 1.0:
            raise ValueError(f"A fraction must be in (0, 1], got {fraction}")
    order = sorted(set(articles))
    if not order:
        raise ValueError("No training articles")
    random.Random(seed).shuffle(order)
    return {f: set(order[:max(1, round(f * len(order)))]) for f in fractions}


def share_name(fraction: float) -> str:
    """RETURNS (str): The file stem of a share: 0.25 → `train_25`."""
    return f"train_{round(fraction * 100):g}"


def size_of(docs: Sequence[Doc], n_articles: int) -> Dict[str, int]:
    """RETURNS (Dict[str, int]): The articles, captions and entities of a training set."""
    return {"articles": n_articles, "captions": len(docs), "entities": sum(len(d.ents) for d in docs)}


@app.command()
def main(
    train: Path = typer.Argument(..., help="The training DocBin written by training.ner.ner_corpus"),
    output: Path = typer.Argument(..., help="Directory for the shares' DocBins and sizes.json"),
    fraction: List[float] = typer.Option(..., help="Share of the training articles (repeatable)"),
    seed: int = typer.Option(0, help="Seed of the article draw"),
) -> None:
    """Write nested article shares of the NER's training set."""
    if not train.is_file():
        raise typer.BadParameter(f"{train} does not exist: run `spacy project run ner-corpus` first")
    nlp = spacy.blank("en")
    docs = list(DocBin().from_disk(train).get_docs(nlp.vocab))
    try:
        doc_articles = [article_of(d) for d in docs]
        shares = nested_article_shares(doc_articles, fraction, seed)
    except ValueError as e:
        raise typer.BadParameter(f"{train}: {e}")
    output.mkdir(parents=True, exist_ok=True)
    sizes: Dict[str, Dict[str, int]] = {}
    for share, articles in shares.items():
        kept = [d for d, article in zip(docs, doc_articles) if article in articles]
        DocBin(docs=kept, store_user_data=True).to_disk(output / f"{share_name(share)}.spacy")
        sizes[share_name(share)] = size_of(kept, len(articles))
    sizes["train"] = size_of(docs, len(set(doc_articles)))
    (output / "sizes.json").write_text(json.dumps(sizes, indent=2) + "\n", encoding="utf8")
    typer.echo(json.dumps(sizes))


if __name__ == "__main__":
    app()
