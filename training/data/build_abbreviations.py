"""Build the abbreviation lexicon `nseen_linker` falls back on (`spacy_nseen.text.abbreviation_lexicon`).

python -m training.data.build_abbreviations corpus/sources/bioid/captions.tsv.gz corpus/abbreviations/lexicon.json \\
    --holdout corpus/ner/stats.json

Mined from the text of the captions only (never from the gold normalizations), one vote per article. The articles
the pipeline is evaluated on are left out (`--holdout`: the `dev_articles` of the NER corpus' stats.json), and
`--documents even|odd` mines one half, so that the other half can be evaluated with a lexicon that never saw it.
"""
import json
from pathlib import Path
from typing import Optional, Set

import typer
from wasabi import msg

from spacy_nseen.errors import ArtifactError
from spacy_nseen.text.abbreviation_lexicon import AbbreviationLexicon, lexicon_rows
from training.common.bioid import DOCUMENT_HALVES, BioIDFormatError, caption_texts_by_article

app = typer.Typer(add_completion=False)


def holdout_articles(path: Optional[Path]) -> Set[str]:
    """RETURNS (Set[str]): the `dev_articles` of a NER corpus stats.json (`training.ner.ner_corpus`), or none."""
    if path is None:
        return set()
    if not path.exists():
        raise ArtifactError(path, "holdout file not found", "Give the stats.json written by training.ner.ner_corpus")
    try:
        articles = json.loads(path.read_text(encoding="utf8"))["dev_articles"]
    except (ValueError, KeyError, TypeError) as e:
        raise ArtifactError(path, f"no 'dev_articles' list ({type(e).__name__}: {e})",
                            "Give the stats.json written by training.ner.ner_corpus") from None
    return {str(a) for a in articles}


def build(captions: Path, output: Path, documents: str = "all", holdout: Optional[Path] = None,
          min_documents: int = 1, min_share: float = 0.5) -> AbbreviationLexicon:
    """Mine the lexicon from the captions of each article and write it (JSON). RETURNS the lexicon."""
    texts = caption_texts_by_article(captions, documents, exclude=holdout_articles(holdout))
    source = f"{captions.name}, documents {documents}" + (f", without the dev articles of {holdout}" if holdout else "")
    lexicon = AbbreviationLexicon.from_documents(texts.values(), min_documents=min_documents, min_share=min_share,
                                                 source=source)
    lexicon.to_disk(output)
    return lexicon


@app.command()
def main(
    captions: Path = typer.Argument(..., help="Bio-ID-format captions TSV (pmc_id, caption_id, text, ...)"),
    output: Path = typer.Argument(..., help="Lexicon to write (.json)"),
    documents: str = typer.Option("all", "--documents", help=f"Articles mined: {', '.join(DOCUMENT_HALVES)}"),
    holdout: Optional[Path] = typer.Option(None, "--holdout",
                                           help="stats.json of training.ner.ner_corpus: its dev_articles are left out"),
    min_documents: int = typer.Option(1, "--min-documents", help="Articles that must define a short form the same way"),
    min_share: float = typer.Option(0.5, "--min-share", help="Share of the defining articles that must agree"),
) -> None:
    """Mine the abbreviations that several articles define the same way."""
    if documents not in DOCUMENT_HALVES:
        msg.fail(f"--documents must be one of {DOCUMENT_HALVES}, got {documents!r}", exits=1)
    if min_documents < 1 or not 0 < min_share <= 1:
        msg.fail("--min-documents must be >= 1 and --min-share in (0, 1]", exits=1)
    try:
        lexicon = build(captions, output, documents, holdout, min_documents, min_share)
    except (ArtifactError, BioIDFormatError, FileNotFoundError, ValueError) as e:
        msg.fail(str(e), exits=1)
    top = ", ".join(f"{s} = {long_form} ({n})" for s, long_form, n, _ in lexicon_rows(lexicon)[:8])
    msg.good(f"{len(lexicon)} abbreviations from {lexicon.documents} articles -> {output}" + (f": {top}" if top else ""))


if __name__ == "__main__":
    app()
