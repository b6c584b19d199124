"""The text `spacy pretrain` reads for the NER's tok2vec: biomedical sentences plus the training captions, as JSONL.

`spacy pretrain` reads `{"text": ...}` lines (`spacy.JsonlCorpus.v1`) and tokenizes them with the NER's caption
tokenizer (the config's `[initialize.before_init]` callback, which `spacy pretrain` runs). The text is the mirror's
unlabelled sentences (`unlabelled/biomedical_sentences.txt.gz`, no Bio-ID text), shuffled with a seed (the file is
grouped by source corpus) and cut at `max_tokens` so that pretraining is bounded in time, then every training
caption (`train.spacy`; the dev articles are not read), the two interleaved at random. A missing text file is
reported and recorded in the stats (the captions alone are then used), never silently skipped.

    python -m training.ner.pretrain_text ../shared/data/unlabelled/biomedical_sentences.txt.gz \\
        corpus/ner/train.spacy training_output/pretrain/text.jsonl --max-tokens 2000000
"""

import json
import random
from pathlib import Path
from typing import Dict, List, Optional

import typer
from wasabi import msg

from training.ner.vectors import caption_lines, optional_path, text_lines

app = typer.Typer(add_completion=False, help=__doc__.split("\n\n")[0])


def sample_lines(lines: List[str], max_tokens: int, seed: int) -> List[str]:
    """RETURNS (List[str]): `lines` shuffled with `seed`, cut before the line that would pass `max_tokens` tokens
    (0: no cut)."""
    shuffled = list(lines)
    random.Random(seed).shuffle(shuffled)
    if max_tokens <= 0:
        return shuffled
    kept: List[str] = []
    n_tokens = 0
    for line in shuffled:
        size = line.count(" ") + 1
        if n_tokens + size > max_tokens:
            break
        kept.append(line)
        n_tokens += size
    return kept


def pretrain_text(text: Optional[Path], train: Path, output: Path, *, max_tokens: int = 0, seed: int = 0
                  ) -> Dict[str, object]:
    """Write the pretraining JSONL (`output`) from `text` (cut at `max_tokens`) and the captions of `train`.

    RETURNS (Dict[str, object]): lines and tokens per source, and whether the text file was missing.
    """
    if max_tokens < 0:
        raise ValueError(f"max_tokens must be 0 (no cut) or positive, got {max_tokens}")
    missing = text is not None and not text.exists()
    if missing:
        msg.warn(f"No unlabelled text at {text}: pretraining on the training captions only")
    sentences = sample_lines(list(text_lines(text)), max_tokens, seed) if text is not None and not missing else []
    captions = list(caption_lines(train))
    if not sentences and not captions:
        raise ValueError(f"No text to pretrain on: {text} is missing or empty and {train} holds no caption")
    tagged = [("text", line) for line in sentences] + [("captions", line) for line in captions]
    random.Random(seed + 1).shuffle(tagged)
    output.parent.mkdir(parents=True, exist_ok=True)
    counts = {"text": {"lines": 0, "tokens": 0}, "captions": {"lines": 0, "tokens": 0}}
    with output.open("w", encoding="utf8") as handle:
        for source, line in tagged:
            handle.write(json.dumps({"text": line}, ensure_ascii=False) + "\n")
            counts[source]["lines"] += 1
            counts[source]["tokens"] += line.count(" ") + 1
    return {"sources": counts, "text_file": str(text) if text else None, "text_missing": missing,
            "max_tokens": max_tokens, "seed": seed}


@app.command()
def main(
    text: str = typer.Argument(..., help="Unlabelled tokenised text, one sentence a line (.gz allowed; \"\" for none)"),
    train: Path = typer.Argument(..., help="The NER's training DocBin (its captions are added to the text)"),
    output: Path = typer.Argument(..., help="The JSONL to write; its stats go beside it (OUTPUT.stats.json)"),
    max_tokens: int = typer.Option(0, help="Keep a random sample of the text up to this many tokens (0: all)"),
    seed: int = typer.Option(0, help="Seed of the sample and of the interleaving"),
) -> None:
    """Write the pretraining text and its stats."""
    stats = pretrain_text(optional_path(text), train, output, max_tokens=max_tokens, seed=seed)
    stats_path = output.with_suffix(".stats.json")
    stats_path.write_text(json.dumps(stats, indent=2) + "\n", encoding="utf8")
    msg.good(f"Wrote {output}", json.dumps(stats["sources"]))


if __name__ == "__main__":
    app()
