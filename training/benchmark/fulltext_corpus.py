"""A realistic full-text BioC corpus from the mirror, for `annotate` with article context (issue 54).

Each document is one Bio-ID article (its captions as `fig_caption` passages, infon `id` = the figure, panels of
one figure sharing it) with body paragraphs before them: `paragraphs` passages of `sentences` consecutive
sentences of the mirror's unlabelled PubMed/PMC text (`unlabelled/biomedical_sentences.txt.gz`). A corpus of more
articles than Bio-ID has reuses its articles in turn, under new document ids, each with new paragraphs.

    python -m training.benchmark.fulltext_corpus ../shared/data OUT.xml --articles 100
"""
import gzip
from itertools import groupby
from pathlib import Path
from typing import Iterator, List
from xml.sax.saxutils import escape

import typer

from training.common.bioid import figure_of, read_captions

app = typer.Typer(add_completion=False)


def sentences(path: Path) -> Iterator[str]:
    """YIELDS (str): the unlabelled sentences, in file order, again from the start when the file ends."""
    while True:
        with gzip.open(path, "rt", encoding="utf8") as f:
            for line in f:
                if line.strip():
                    yield line.strip()


def passage(offset: int, text: str, infons: dict) -> str:
    tags = "".join(f'<infon key="{escape(k)}">{escape(v)}</infon>' for k, v in infons.items())
    return f"<passage>{tags}<offset>{offset}</offset><text>{escape(text)}</text></passage>"


def write_fulltext_bioc(mirror: Path, output: Path, articles: int, paragraphs: int = 4, sentences_each: int = 4) -> int:
    """Write `articles` BioC documents (see the module doc). RETURNS (int): the passages written."""
    captions = read_captions(mirror / "bioid" / "captions.tsv.gz")
    groups = [list(g) for _, g in groupby(captions, key=lambda c: c.pmc_id)]
    text = sentences(mirror / "unlabelled" / "biomedical_sentences.txt.gz")
    n_passages = 0
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("w", encoding="utf8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<collection><source>nseen benchmark</source><date/><key/>\n')
        for n in range(articles):
            group = groups[n % len(groups)]
            parts: List[str] = []
            offset = 0
            for _ in range(paragraphs):
                body = " ".join(next(text) for _ in range(sentences_each))
                parts.append(passage(offset, body, {"type": "paragraph", "section_type": "RESULTS"}))
                offset += len(body) + 1
            for caption in group:
                parts.append(passage(offset, caption.text, {"type": "fig_caption", "section_type": "FIG",
                                                            "id": figure_of(caption.caption_id)}))
                offset += len(caption.text) + 1
            out.write(f"<document><id>{group[0].pmc_id}-{n}</id>{''.join(parts)}</document>\n")
            n_passages += len(parts)
        out.write("</collection>\n")
    return n_passages


@app.command()
def main(
    mirror: Path = typer.Argument(..., help="The data mirror (../shared/data)"),
    output: Path = typer.Argument(..., help="BioC XML file to write"),
    articles: int = typer.Option(100, "--articles", help="Documents"),
    paragraphs: int = typer.Option(4, "--paragraphs", help="Body paragraphs per document"),
    sentences_each: int = typer.Option(4, "--sentences", help="Sentences per paragraph"),
) -> None:
    """Write a full-text BioC corpus made from the mirror."""
    n = write_fulltext_bioc(mirror, output, articles, paragraphs, sentences_each)
    typer.echo(f"{articles} articles, {n} passages -> {output}")


if __name__ == "__main__":
    app()
