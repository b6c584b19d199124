"""Floret word vectors for the NER's static vectors, trained on biomedical text and the training captions.

Floret (fastText with hashed subwords, `mode="floret"`) stores only a table of hashed character n-grams, so every
token gets a vector, also one it never saw (`PKCδ`, `Trp53`, `IL-2Rα`). The text is the mirror's unlabelled
biomedical sentences (`unlabelled/biomedical_sentences.txt.gz`: PubMed and PMC, already tokenised, one sentence a
line; no Bio-ID text) plus the NER's training captions as its own tokenizer splits them (`train.spacy`; the dev
articles are not read). A missing text file is reported and recorded in the stats (the captions alone are then
used), never silently skipped. The vectors are written in floret's text format and loaded into a spaCy vocab
(`spacy init vectors LANG FILE DIR --mode floret`), which the NER's `[initialize] vectors` reads.

    python -m training.ner.vectors ../shared/data/unlabelled/biomedical_sentences.txt.gz corpus/ner/train.spacy \\
        training_output/vectors --dim 100 --epochs 5
"""

import gzip
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, TextIO, Union

import spacy
import typer
from spacy.tokens import DocBin
from wasabi import msg

app = typer.Typer(add_completion=False, help=__doc__.split("\n\n")[0])


def open_text(path: Path) -> TextIO:
    """RETURNS (TextIO): the file opened for reading as UTF-8 text (gzip when it ends with .gz)."""
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf8")
    return path.open("r", encoding="utf8")


def text_lines(path: Path) -> Iterator[str]:
    """YIELDS (str): the non-empty lines of a tokenised text file, whitespace runs made single spaces."""
    with open_text(path) as handle:
        for line in handle:
            tokens = line.split()
            if tokens:
                yield " ".join(tokens)


def caption_lines(train: Path) -> Iterator[str]:
    """YIELDS (str): each training caption's tokens (as the NER's tokenizer split them) joined by spaces."""
    vocab = spacy.blank("en").vocab
    for doc in DocBin().from_disk(train).get_docs(vocab):
        tokens = [token.text for token in doc if not token.is_space]
        if tokens:
            yield " ".join(" ".join(tokens).split())


def write_corpus(sources: Dict[str, Iterable[str]], output: TextIO) -> Dict[str, Dict[str, int]]:
    """Write every source's lines to `output`, one a line.

    RETURNS (Dict[str, Dict[str, int]]): per source, its lines and tokens.
    """
    counts: Dict[str, Dict[str, int]] = {}
    for name, lines in sources.items():
        n_lines = n_tokens = 0
        for line in lines:
            output.write(line + "\n")
            n_lines += 1
            n_tokens += line.count(" ") + 1
        counts[name] = {"lines": n_lines, "tokens": n_tokens}
    return counts


def train_floret(corpus: Path, output: Path, *, dim: int, epochs: int, min_count: int, minn: int, maxn: int,
                 bucket: int, hash_count: int, threads: int) -> int:
    """Train floret CBOW vectors on `corpus` and write them in floret's text format (`output`, `.floret`).

    RETURNS (int): the number of words of the model's vocabulary (the vectors table has `bucket` rows).
    """
    import floret  # a training dependency (setup.cfg `training`), not one of the package's

    # floret's unsupervised training takes no seed; one thread keeps a run deterministic for a given corpus
    model = floret.train_unsupervised(
        str(corpus), model="cbow", mode="floret", dim=dim, epoch=epochs, minCount=min_count, minn=minn,
        maxn=maxn, bucket=bucket, hashCount=hash_count, thread=threads, verbose=0,
    )
    model.save_floret_vectors(str(output))
    return len(model.words)


def init_vectors(floret_file: Path, output: Path, *, lang: str, name: str) -> None:
    """Load floret vectors into a spaCy vocab at `output` (`spacy init vectors ... --mode floret`)."""
    command = [sys.executable, "-m", "spacy", "init", "vectors", lang, str(floret_file), str(output),
               "--mode", "floret", "--name", name]
    subprocess.run(command, check=True)


def floret_vectors(text: Optional[Path], train: Path, output_dir: Path, *, dim: int = 100, epochs: int = 5,
                   min_count: int = 3, minn: int = 3, maxn: int = 6, bucket: int = 50000, hash_count: int = 2,
                   threads: int = 1, lang: str = "en", name: str = "nseen_bio_floret") -> Dict[str, object]:
    """Train floret vectors on the unlabelled text (if it exists) and the training captions; write
    `output_dir/vectors.floret`, the spaCy vocab `output_dir/nlp` and `output_dir/stats.json`.

    RETURNS (Dict[str, object]): the stats written.
    """
    output_dir.mkdir(parents=True, exist_ok=True)
    sources: Dict[str, Iterable[str]] = {}
    missing: List[str] = []
    if text is not None and text.exists():
        sources["unlabelled_text"] = text_lines(text)
    elif text is not None:
        missing.append(str(text))
        msg.warn(f"No unlabelled text at {text}: the vectors are trained on the training captions only")
    sources["training_captions"] = caption_lines(train)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.txt"
        with corpus.open("w", encoding="utf8") as handle:
            counts = write_corpus(sources, handle)
        if sum(count["tokens"] for count in counts.values()) == 0:
            raise ValueError(f"No text to train vectors on: {text} and {train} hold no tokens")
        floret_file = output_dir / "vectors.floret"
        n_words = train_floret(corpus, floret_file, dim=dim, epochs=epochs, min_count=min_count, minn=minn,
                               maxn=maxn, bucket=bucket, hash_count=hash_count, threads=threads)
    train_seconds = time.perf_counter() - start
    init_vectors(floret_file, output_dir / "nlp", lang=lang, name=name)
    stats: Dict[str, object] = {
        "sources": counts, "missing_text": missing, "text": str(text) if text else None, "train": str(train),
        "words": n_words, "settings": {"dim": dim, "epochs": epochs, "min_count": min_count, "minn": minn,
                                       "maxn": maxn, "bucket": bucket, "hash_count": hash_count, "threads": threads},
        "train_seconds": round(train_seconds, 1),
    }
    (output_dir / "stats.json").write_text(json.dumps(stats, indent=2) + "\n", encoding="utf8")
    return stats


def optional_path(value: str) -> Union[Path, None]:
    """RETURNS (Optional[Path]): None for "" or "null", else the path."""
    return None if value in ("", "null") else Path(value)


@app.command()
def main(
    text: str = typer.Argument(..., help="Unlabelled tokenised text, one sentence a line (.gz allowed; \"\" for none)"),
    train: Path = typer.Argument(..., help="The NER's training DocBin (its captions are added to the text)"),
    output_dir: Path = typer.Argument(..., help="Writes vectors.floret, nlp/ (spaCy vectors) and stats.json"),
    dim: int = typer.Option(100, help="Vector width"),
    epochs: int = typer.Option(5, help="Passes over the text"),
    min_count: int = typer.Option(3, help="Words seen fewer times have no word entry (their n-grams still count)"),
    minn: int = typer.Option(3, help="Shortest character n-gram"),
    maxn: int = typer.Option(6, help="Longest character n-gram"),
    bucket: int = typer.Option(50000, help="Rows of the hashed table (the vectors' size)"),
    hash_count: int = typer.Option(2, help="Rows each word and n-gram is hashed to"),
    threads: int = typer.Option(1, help="Training threads"),
) -> None:
    """Train the NER's floret vectors and load them into a spaCy vocab."""
    stats = floret_vectors(optional_path(text), train, output_dir, dim=dim, epochs=epochs, min_count=min_count,
                           minn=minn, maxn=maxn, bucket=bucket, hash_count=hash_count, threads=threads)
    msg.good(f"Vectors in {output_dir / 'nlp'}: {stats['sources']}, {stats['train_seconds']} s")


if __name__ == "__main__":
    app()
