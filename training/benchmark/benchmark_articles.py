"""The `articles` section of `training.benchmark.benchmark` (issue 54): the pipeline's speed on articles of 25, 100,
400 and 1,000 texts with and without article context, on Bio-ID captions grouped by article, and `annotate` over
full-text BioC corpora of 100 and 1,000 articles (texts/s, peak RSS).

Speeds with and without context are measured in one process on the same texts, interleaved (no context, article
context, and for the smaller sizes the context given as lists of the other texts, the per-doc reading of before
issue 54), `rounds` times; the ratio of each round is reported with its median, as the machine's load moves the
absolute figures. An article of N texts is the first N Bio-ID captions in file order (one article has at most 64).
"""
import json
import os
import statistics
import subprocess
import sys
import time
from itertools import groupby
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from wasabi import msg

from spacy_nseen.pipe.article import article_docs
from training.benchmark.fulltext_corpus import write_fulltext_bioc
from training.benchmark.process_memory import PeakMemory
from training.common.bioid import figure_of, read_captions

ARTICLE_SIZES = (25, 100, 400, 1000)
LIST_SIZES = (25, 100)  # the per-doc lists of before: 400 texts and more would take minutes
FULLTEXT_ARTICLES = (100, 1000)


def clear_caches(nlp: Any) -> None:
    """Empty the linkers' mention caches and the linker's article cache, so each run starts alike."""
    for _, pipe in nlp.pipeline:
        for linker in getattr(pipe, "linkers", {}).values():
            linker.clear_cache()
        if hasattr(pipe, "article_cache"):
            pipe.article_cache = type(pipe.article_cache)()


def timed_run(nlp: Any, make_docs: Callable[[], List[Any]]) -> Tuple[float, float]:
    """RETURNS (Tuple[float, float]): seconds to make the docs and run the pipeline over them, wall and CPU (this
    process: on a shared machine the CPU seconds say more than the wall seconds)."""
    clear_caches(nlp)
    start, cpu = time.perf_counter(), time.process_time()
    for _ in nlp.pipe(make_docs()):
        pass
    return time.perf_counter() - start, time.process_time() - cpu


def with_lists(nlp: Any, articles: Sequence[Sequence[str]], figures: Optional[Sequence[Sequence[str]]] = None) -> List[Any]:
    """The docs of articles, each given the lists of the other texts of its article and figure (read per doc)."""
    docs = []
    for n, texts in enumerate(articles):
        keys = figures[n] if figures else None
        for doc in article_docs(nlp, texts, keys):
            doc._.article_texts, doc._.figure_texts = list(doc._.article_texts), doc._.figure_texts
            docs.append(doc)
    return docs


def interleaved(nlp: Any, articles: Sequence[Sequence[str]], rounds: int, lists: bool,
                figures: Optional[Sequence[Sequence[str]]] = None) -> Dict[str, Any]:
    """Texts/s without context, with article context and (`lists`) with the lists of the other texts, interleaved."""
    texts = [t for article in articles for t in article]
    runs: Dict[str, Callable[[], List[Any]]] = {
        "no_context": lambda: [nlp.make_doc(t) for t in texts],
        "context": lambda: [d for n, a in enumerate(articles) for d in article_docs(nlp, a, figures[n] if figures else None)],
    }
    if lists:
        runs["context_as_lists"] = lambda: with_lists(nlp, articles, figures)
    seconds: Dict[str, List[float]] = {name: [] for name in runs}
    cpu_seconds: Dict[str, List[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, make in runs.items():
            wall, cpu = timed_run(nlp, make)
            seconds[name].append(wall)
            cpu_seconds[name].append(cpu)
    out: Dict[str, Any] = {"texts": len(texts), "articles": len(articles), "rounds": rounds}
    for name, values in seconds.items():
        out[f"{name}_texts_per_s"] = [round(len(texts) / s, 1) for s in values]
        out[f"{name}_texts_per_s_median"] = round(len(texts) / statistics.median(values), 1)
        out[f"{name}_texts_per_cpu_s_median"] = round(len(texts) / max(statistics.median(cpu_seconds[name]), 1e-9), 1)
    for name in runs:
        if name != "no_context":
            ratios = [a / b for a, b in zip(seconds["no_context"], seconds[name])]
            out[f"{name}_ratio"] = [round(r, 3) for r in ratios]
            out[f"{name}_ratio_median"] = round(statistics.median(ratios), 3)
    return out


def article_sizes(nlp: Any, captions: Path, sizes: Sequence[int], rounds: int, min_texts: int = 400) -> Dict[str, Any]:
    """Articles of each size made of the first captions in file order; at least `min_texts` texts per run."""
    texts = [c.text for c in read_captions(captions)]
    list(nlp.pipe(texts[:32]))  # warm-up
    out = {}
    for size in sizes:
        count = max(1, -(-min_texts // size))
        articles = [texts[i * size:(i + 1) * size] for i in range(count)]
        msg.info(f"articles of {size} texts: {count} article(s)")
        out[str(size)] = interleaved(nlp, articles, rounds, lists=size in LIST_SIZES)
        msg.info(f"  {out[str(size)]}")
    return out


def bioid_articles(nlp: Any, captions: Path, n_captions: int, rounds: int) -> Dict[str, Any]:
    """Bio-ID captions grouped by article (`pmc_id`) with their figures, the first `n_captions` of the file."""
    rows = read_captions(captions)[:n_captions]
    groups = [list(g) for _, g in groupby(rows, key=lambda c: c.pmc_id)]
    articles = [[c.text for c in g] for g in groups]
    figures = [[figure_of(c.caption_id) for c in g] for g in groups]
    return interleaved(nlp, articles, rounds, lists=True, figures=figures)


def annotate_fulltext(pipeline: str, mirror: Path, work: Path, n_articles: Sequence[int]) -> Dict[str, Any]:
    """`python -m spacy_nseen annotate` over full-text BioC corpora (`fulltext_corpus`), in a fresh process each:
    texts/s (its summary) and the process's peak RSS (sampled, and `VmHWM` as the kernel counts it)."""
    out: Dict[str, Any] = {}
    for n in n_articles:
        corpus = work / f"fulltext_{n}.xml"
        passages = write_fulltext_bioc(mirror, corpus, n)
        target = work / f"annotated_{n}"
        command = [sys.executable, "-m", "spacy_nseen", "annotate", str(corpus), str(target), "--pipeline", pipeline,
                   "--no-progress", "--overwrite"]
        load = os.getloadavg()[0]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        with PeakMemory(lambda: [process.pid], interval=0.5) as peak:
            output, _ = process.communicate()
        if process.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{output}")
        summary = json.loads((target / "summary.json").read_text(encoding="utf8"))
        memory = peak.peaks.get(process.pid, {})
        out[str(n)] = {"articles": n, "passages": passages, "texts": summary["texts"], "seconds": summary["seconds"],
                       "texts_per_s": summary["texts_per_second"], "entities": summary["entities"],
                       "peak_rss_mb": round(memory.get("rss", 0) / 2**20, 1), "load_average_at_start": round(load, 2),
                       "command": " ".join(command)}
        msg.info(f"annotate {n} articles: {out[str(n)]}")
    return out


def run_articles(results: Dict[str, Any], pipeline: str, captions: Path, work: Path, *, sizes: Sequence[int] = ARTICLE_SIZES,
                 rounds: int = 2, bioid_captions: int = 2000, fulltext: Sequence[int] = FULLTEXT_ARTICLES,
                 min_texts: int = 400) -> None:
    """The articles section: fills `results["articles"]`."""
    import spacy

    msg.divider("Articles: context read once per article")
    nlp = spacy.load(pipeline)
    section: Dict[str, Any] = {"pipeline": pipeline, "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}
    results["articles"] = section
    if bioid_captions:
        section["bioid_by_article"] = bioid_articles(nlp, captions, bioid_captions, rounds)
        msg.info(f"Bio-ID by article: {section['bioid_by_article']}")
    if sizes:
        section["sizes"] = article_sizes(nlp, captions, sizes, rounds, min_texts)
    del nlp
    if fulltext:
        mirror = captions.parent.parent
        section["annotate_fulltext"] = annotate_fulltext(pipeline, mirror, work, fulltext)
    section["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]


def articles_markdown(section: Dict[str, Any]) -> List[str]:
    """RETURNS (List[str]): the section's lines of the benchmark report."""
    rows = []
    for size, v in section.get("sizes", {}).items():
        rows.append([size, v["texts"], v["no_context_texts_per_s_median"], v["context_texts_per_s_median"],
                     v["context_ratio"], v["context_ratio_median"], v.get("context_as_lists_ratio_median", "")])
    bioid = section.get("bioid_by_article")
    cpu = [(name, v) for name, v in list(section.get("sizes", {}).items()) + [("Bio-ID by article", bioid or {})]
           if "context_texts_per_cpu_s_median" in v]
    if bioid:
        rows.append([f"Bio-ID by article ({bioid['articles']} articles)", bioid["texts"], bioid["no_context_texts_per_s_median"],
                     bioid["context_texts_per_s_median"], bioid["context_ratio"], bioid["context_ratio_median"],
                     bioid.get("context_as_lists_ratio_median", "")])
    head = "| texts in the article | texts | no context texts/s | context texts/s | ratio per round | ratio (median) | lists of the other texts: ratio |"
    lines = ["## Articles: context read once per article", "",
             f"Load average at the start {section.get('load_average_at_start')}, at the end {section.get('load_average_at_end')}.", "",
             head, "|" + "---|" * 7]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    if cpu:
        lines += ["", "Per CPU-second of the benchmark's process (medians; what the other jobs on the machine do not slow):", "",
                  "| texts in the article | no context texts/CPU-s | context texts/CPU-s |", "|---|---|---|"]
        lines += [f"| {name} | {v['no_context_texts_per_cpu_s_median']} | {v['context_texts_per_cpu_s_median']} |" for name, v in cpu]
    full = section.get("annotate_fulltext") or {}
    if full:
        lines += ["", "| full-text BioC articles | passages | texts/s | peak RSS (MB) | load at start |", "|---|---|---|---|---|"]
        lines += [f"| {v['articles']} | {v['passages']} | {v['texts_per_s']} | {v['peak_rss_mb']} | {v['load_average_at_start']} |"
                  for v in full.values()]
    return lines + [""]
