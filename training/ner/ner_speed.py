"""Speed and memory of an NER pipeline alone: captions per second on one thread and the process's peak RSS.

Loads the model in this (fresh) process, tags the dev captions' texts once to warm up, then times `nlp.pipe` over
them (`--repeats` times, the best pass reported). `captions_per_s` is per second of this process's CPU time on one
thread (what one core sustains, little changed by other processes sharing the machine; `captions_per_wall_s` is
per second of wall time, which they do change); the peak RSS is the process's maximum resident set size after
loading and tagging (`resource.getrusage`, Linux kB). Run it with OMP_NUM_THREADS=1 and the machine otherwise as
quiet as it gets: the numbers are those of this machine and its load at the time.

    OMP_NUM_THREADS=1 python -m training.ner.ner_speed training_output/ner/model-best corpus/ner/dev.spacy \\
        --max-captions 1000 --output results/ner_vectors/speed_baseline.json
"""

import json
import resource
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import spacy
import typer
from spacy.tokens import DocBin
from threadpoolctl import threadpool_limits
from wasabi import msg

from training.common.headline import command_line

from . import bio_tokenizer  # noqa: F401  (registers the tokenizer callback named in the model's config)


def caption_texts(dev: Path, max_captions: int) -> List[str]:
    """RETURNS (List[str]): the texts of the first `max_captions` docs of a DocBin."""
    vocab = spacy.blank("en").vocab
    texts = [doc.text for doc in DocBin().from_disk(dev).get_docs(vocab)]
    if not texts:
        raise ValueError(f"{dev} holds no docs to time the NER on")
    return texts[:max_captions]


def peak_rss_mb() -> float:
    """RETURNS (float): this process's peak resident set size in MB (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(model: Path, texts: List[str], *, batch_size: int, repeats: int) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): captions per CPU second and per wall second (best of `repeats` timed passes after
    one warm-up), the passes' times, peak RSS."""
    with threadpool_limits(1):
        nlp = spacy.load(model)
        list(nlp.pipe(texts[:batch_size], batch_size=batch_size))
        times, cpu_times = [], []
        for _ in range(max(1, repeats)):
            start, cpu_start = time.perf_counter(), time.process_time()
            for _doc in nlp.pipe(texts, batch_size=batch_size):
                pass
            times.append(time.perf_counter() - start)
            cpu_times.append(time.process_time() - cpu_start)
    return {"captions": len(texts), "captions_per_s": round(len(texts) / min(cpu_times), 1),
            "captions_per_wall_s": round(len(texts) / min(times), 1), "cpu_seconds": [round(t, 2) for t in cpu_times],
            "seconds": [round(t, 2) for t in times], "peak_rss_mb": round(peak_rss_mb(), 1)}


def main(
    model: Path = typer.Argument(..., help="The NER pipeline directory"),
    dev: Path = typer.Argument(..., help="A DocBin whose texts are tagged (e.g. corpus/ner/dev.spacy)"),
    max_captions: int = typer.Option(1000, help="Captions timed"),
    batch_size: int = typer.Option(64, help="Captions per nlp.pipe batch"),
    repeats: int = typer.Option(2, help="Timed passes (the best is reported)"),
    output: Optional[Path] = typer.Option(None, help="Write the figures (JSON, with the command line)"),
) -> None:
    """Time an NER pipeline on one thread and report its peak RSS."""
    result = {"command": command_line("training.ner.ner_speed"), "model": str(model), "batch_size": batch_size,
              **measure(model, caption_texts(dev, max_captions), batch_size=batch_size, repeats=repeats)}
    msg.info(json.dumps(result))
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    typer.run(main)
