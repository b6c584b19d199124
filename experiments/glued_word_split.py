"""Would splitting glued lower-case words (`hippocampaldendrites`, `miceblastocysts`) align more Bio-ID mentions?

A simulation, not a tokenizer: each token of the NER model's tokenizer that is letters only (lower case, or one
capital then lower case), at least `min_length` long and not itself a word of the training captions, is cut into
the fewest words of the training captions (each seen at least `min_count` times, at least `min_piece` letters;
ties: the more frequent words). It counts the gold mentions whose ends fall on token boundaries before and after,
and the mentions a cut would break (results/ner/experiments/README.md, "Glued words").

    python -m experiments.glued_word_split training_output/ner/model-best corpus/ner/dev.spacy \\
        --train corpus/ner/train.spacy

The mentions are the Bio-ID mentions `training.ner.ner_corpus` keeps with each doc (`doc.user_data["mentions"]`, of
the types of its labels, as `training.ner.ner_report` counts them); the word counts come from the training
captions only, so the scored articles' words are never used.
"""
import math
import re
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Tuple

import spacy
import typer
from spacy.language import Language
from spacy.tokens import Doc, DocBin

from training.ner.ner_corpus import DEFAULT_LABELS, parse_labels

_WORDS = re.compile(r"(?<![A-Za-z])[A-Za-z]+(?![A-Za-z])")
_GLUABLE = re.compile(r"[A-Za-z][a-z]+")
app = typer.Typer(add_completion=False)


def word_counts(texts: Iterable[str]) -> Counter:
    """RETURNS (Counter): lower-cased letter-only words of the texts and how often each occurs."""
    return Counter(w.lower() for text in texts for w in _WORDS.findall(text))


def split_points(token: str, counts: Mapping[str, int], min_count: int = 5, min_piece: int = 3,
                 min_length: int = 7) -> Optional[List[int]]:
    """The offsets at which a glued token is cut into known words (the fewest pieces; ties: the more frequent
    words), or None when it is not cut (too short, not letters only, a known word, or no cut into known words)."""
    low = token.lower()
    n = len(low)
    if n < min_length or not _GLUABLE.fullmatch(token) or counts.get(low, 0) >= min_count:
        return None
    best: List[Optional[Tuple[int, float, List[int]]]] = [None] * (n + 1)
    best[0] = (0, 0.0, [])
    for i in range(n):
        here = best[i]
        if here is None:
            continue
        for j in range(i + min_piece, n + 1):
            count = counts.get(low[i:j], 0)
            if count < min_count:
                continue
            candidate = (here[0] + 1, here[1] - math.log(count), here[2] + [j])
            there = best[j]
            if there is None or candidate[:2] < there[:2]:
                best[j] = candidate
    end = best[n]
    if end is None or end[0] < 2:
        return None
    return end[2][:-1]


def alignment_counts(nlp: Language, docs: Iterable[Doc], counts: Mapping[str, int], types: Iterable[str],
                     **kwargs: int) -> Dict[str, object]:
    """Count the Bio-ID mentions of `types` (`doc.user_data["mentions"]`) misaligned with `nlp`'s tokens before and
    after the cuts, and those a cut breaks."""
    types = frozenset(types)
    n = before = after = broken = 0
    broken_texts: Counter = Counter()
    cut_tokens: Counter = Counter()
    for gold in docs:
        doc = nlp.make_doc(gold.text)
        bounds = {t.idx for t in doc} | {t.idx + len(t) for t in doc}
        cuts = set()
        for token in doc:
            points = split_points(token.text, counts, **kwargs)
            if points:
                cut_tokens[token.text] += 1
                cuts.update(token.idx + p for p in points)
        for start, end, entity_type, *_ in gold.user_data.get("mentions", []):
            if entity_type not in types:
                continue
            start, end = int(start), int(end)
            n += 1
            aligned = start in bounds and end in bounds
            inside = any(start < c < end for c in cuts)
            aligned_after = (start in bounds or start in cuts) and (end in bounds or end in cuts) and not inside
            before += not aligned
            after += not aligned_after
            if aligned and inside:
                broken += 1
                broken_texts[gold.text[start:end]] += 1
    return {"mentions": n, "misaligned_before": before, "misaligned_after": after, "newly_broken": broken,
            "broken": broken_texts.most_common(10), "tokens_cut": sum(cut_tokens.values()),
            "most_cut": cut_tokens.most_common(10)}


def _components(model: Path) -> List[str]:
    """RETURNS (List[str]): the model's components, all left out on load (only its tokenizer is read)."""
    return list(spacy.util.load_config(Path(model) / "config.cfg")["nlp"]["pipeline"])


@app.command()
def main(model: Path = typer.Argument(..., help="A pipeline whose tokenizer is scored (the NER model)"),
         scored: Path = typer.Argument(..., help="DocBin of the scored captions (corpus/ner/dev.spacy)"),
         train: Path = typer.Option(..., "--train", help="DocBin of the training captions: the word counts"),
         labels: str = typer.Option(DEFAULT_LABELS, help="type=LABEL pairs (as ner_corpus): the mention types counted"),
         min_count: int = typer.Option(5, "--min-count", help="Times a word must occur in the training captions"),
         ) -> None:
    """Print the alignment counts of the scored captions and of the training captions."""
    nlp = spacy.load(model, exclude=_components(model))
    types = parse_labels(labels)
    train_docs = list(DocBin().from_disk(train).get_docs(nlp.vocab))
    counts = word_counts(d.text for d in train_docs)
    for name, docs in (("scored", DocBin().from_disk(scored).get_docs(nlp.vocab)), ("train", train_docs)):
        typer.echo(f"{name}: {alignment_counts(nlp, docs, counts, types, min_count=min_count)}")


if __name__ == "__main__":
    app()
