"""Speed and memory of trained linkers and of the pipeline, measured in one run on this machine (issue 6).

python -m training.benchmark.benchmark --linkers training_output/uniprot/linker training_output/chebi/linker \\
    --pipeline training_output/pipeline --mentions ../shared/data/bioid/mentions.tsv.gz \\
    --captions ../shared/data/bioid/captions.tsv.gz --output results/benchmark.json

Prints a table, writes the JSON and a Markdown report (with this command line) beside it. Every figure
has a reference measured in the same run: an exact-match dictionary linker for linking, the pipeline
without `nseen_linker` for the pipeline. Without --pipeline (or if it cannot be loaded), the pipeline is
`spacy.blank("en")` + an entity ruler of the gold Bio-ID mention strings + `nseen_linker`.
"""
import json
import os
import platform
import resource
import shlex
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy
import typer
from wasabi import msg

from spacy_nseen.encoder.layer import set_precision
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker, LinkerSettings
from training.benchmark.benchmark_articles import run_articles
from training.benchmark.benchmark_pipeline import LABEL_KBS, TYPE_LABELS, run_pipeline
from training.benchmark.benchmark_report import check_targets, print_targets, write_markdown
from training.common.bioid import Mention, kb_queries, read_mentions, read_secondary_map
from training.common.headline import update_headline
from training.evaluation.baselines import ExactMatchRanker, Reference
from training.evaluation.evaluate import hits_at_k, split_in_kb
from training.linker.settings_spec import linker_from_config

PRECISIONS = ("fp32", "bf16", "int8")
SEARCH_KS = (-1, 2000, 1000, 500)
SPARSE_MAX_DFS = (1.0, 0.01, 0.002, 0.0)
SECTIONS = ("linking", "options", "build", "pipeline", "load", "articles")
app = typer.Typer(add_completion=False)


def timed(func: Callable[[], Any]) -> Tuple[Any, float]:
    start = time.perf_counter()
    result = func()
    return result, time.perf_counter() - start


def per_second(count: int, seconds: float) -> float:
    return round(count / seconds, 1) if seconds > 0 else float("inf")


def cpu_seconds() -> float:
    """RETURNS (float): CPU time of this process (all threads) and of its finished child processes."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# Mentions ---------------------------------------------------------------------------------------------


def mention_stream(mentions: Sequence[Mention], kb_names: Sequence[str]) -> List[Dict[str, List[str]]]:
    """The linkable mentions of each caption in document order: [{kb: [mention text, ...]}, ...]."""
    captions: Dict[Tuple[str, str], Dict[str, List[str]]] = {}
    for mention in mentions:
        kb = LABEL_KBS.get(TYPE_LABELS.get(mention.entity_type.lower(), ""))
        doc = captions.setdefault((mention.pmc_id, mention.caption_id), {})
        if kb in kb_names and mention.text.strip():
            doc.setdefault(kb, []).append(mention.text)
    return list(captions.values())


def distinct_mentions(stream: Sequence[Dict[str, List[str]]], kb: str) -> List[str]:
    return list(dict.fromkeys(text for doc in stream for text in doc.get(kb, [])))


def component_defaults() -> Tuple[LinkerSettings, int, str]:
    """RETURNS (Tuple[LinkerSettings, int, str]): the search settings, search_k and encoder precision of the
    factory defaults, which the benchmark gives every linker without a pipeline config."""
    from spacy_nseen.pipe.config import DEFAULT_ENCODER

    pipe = linker_from_config(None)
    return pipe.settings, pipe.search_k, str(DEFAULT_ENCODER["precision"])


def configured_settings(config_path: Optional[Path]) -> Tuple[LinkerSettings, int, str, Dict[str, LinkerSettings]]:
    """The search settings, search_k and encoder precision of the `nseen_linker` block of a pipeline config, and
    each reference set's own settings (its ranker and decision), filled in with the defaults (None: the defaults
    only)."""
    if config_path is None:
        return (*component_defaults(), {})
    from thinc.api import Config

    block = Config().from_disk(config_path)["components"]["nseen_linker"]
    pipe = linker_from_config(config_path)
    precision = str(block.get("encoder", {}).get("precision", component_defaults()[2]))
    return pipe.settings, pipe.search_k, precision, {kb: pipe.settings_for(kb) for kb in pipe.kb_names}


def settings_for(kb: str, settings: LinkerSettings, kb_settings: Dict[str, LinkerSettings]) -> LinkerSettings:
    """RETURNS (LinkerSettings): the settings of the reference set `kb` (`settings` if it has none of its own)."""
    return kb_settings.get(kb, settings)


def component_build_precision() -> str:
    """RETURNS (str): the precision `nseen_linker` encodes reference names at when it builds an index."""
    return str(linker_from_config(None).build_precision)


# Linking throughput ------------------------------------------------------------------------------------


def link_stream(linkers: Dict[str, KnowledgeBaseLinker], stream: Sequence[Dict[str, List[str]]], batch_docs: int = 256, top_k: int = 5) -> Tuple[float, float]:
    """Link a stream like `nseen_linker.pipe` does (one call per batch of docs and reference set), caches
    emptied first. RETURNS (Tuple[float, float]): wall and CPU seconds."""
    for linker in linkers.values():
        linker.clear_cache()
    start = time.perf_counter()
    cpu_start = cpu_seconds()
    for first in range(0, len(stream), batch_docs):
        batch = stream[first : first + batch_docs]
        for kb, linker in linkers.items():
            texts = [text for doc in batch for text in doc.get(kb, [])]
            if texts:
                linker.link(texts, top_k=top_k)
    return time.perf_counter() - start, cpu_seconds() - cpu_start


def link_distinct(linker: KnowledgeBaseLinker, texts: Sequence[str], chunk: int = 1024, top_k: int = 5) -> Tuple[float, float]:
    """Link distinct mentions with an empty cache. RETURNS (Tuple[float, float]): wall and CPU seconds."""
    linker.clear_cache()
    start = time.perf_counter()
    cpu_start = cpu_seconds()
    for first in range(0, len(texts), chunk):
        linker.link(list(texts[first : first + chunk]), top_k=top_k)
    linker.clear_cache()
    return time.perf_counter() - start, cpu_seconds() - cpu_start


def dictionary_linker(linker: KnowledgeBaseLinker) -> ExactMatchRanker:
    """The reference: exact match on light-normalised names, over the linker's own reference set."""
    ref = linker.reference_set
    return ExactMatchRanker(Reference([ref.kb_ids[e] for e in ref.name_entity], list(ref.names), list(ref.kinds)))


def linking_throughput(linkers: Dict[str, KnowledgeBaseLinker], stream: Sequence[Dict[str, List[str]]]) -> Dict[str, Any]:
    """Mentions/s of the linkers and of exact-match dictionaries on distinct mentions and on the stream."""
    out: Dict[str, Any] = {"uncached": {}, "stream": {}}
    dictionaries = {kb: dictionary_linker(linker) for kb, linker in linkers.items()}
    total_distinct = total_seconds = total_dict_seconds = total_cpu = 0.0
    for kb, linker in linkers.items():
        texts = distinct_mentions(stream, kb)
        link_distinct(linker, texts[:64])  # warm-up (first torch call, page faults)
        seconds, cpu = link_distinct(linker, texts)
        _, dict_seconds = timed(lambda: dictionaries[kb].rank(texts, 5))
        out["uncached"][kb] = {"mentions": len(texts), "seconds": round(seconds, 3), "mentions_per_s": per_second(len(texts), seconds),
                               "cpu_seconds": round(cpu, 3), "mentions_per_cpu_s": per_second(len(texts), cpu),
                               "dictionary_mentions_per_s": per_second(len(texts), dict_seconds)}
        msg.info(f"{kb}: {out['uncached'][kb]['mentions_per_s']} distinct mentions/s uncached "
                 f"(exact dictionary: {out['uncached'][kb]['dictionary_mentions_per_s']})")
        total_distinct += len(texts)
        total_seconds += seconds
        total_cpu += cpu
        total_dict_seconds += dict_seconds
    out["uncached"]["all"] = {"mentions": int(total_distinct), "mentions_per_s": per_second(int(total_distinct), total_seconds),
                              "mentions_per_cpu_s": per_second(int(total_distinct), total_cpu),
                              "dictionary_mentions_per_s": per_second(int(total_distinct), total_dict_seconds)}
    n_stream = sum(len(texts) for doc in stream for texts in doc.values())
    seconds, cpu = link_stream(linkers, stream)
    dict_seconds = sum(timed(lambda kb=kb: dictionaries[kb].rank([t for doc in stream for t in doc.get(kb, [])], 5))[1] for kb in linkers)
    out["stream"] = {
        "mentions": n_stream, "docs": len(stream), "distinct": int(total_distinct), "seconds": round(seconds, 3),
        "mentions_per_s": per_second(n_stream, seconds), "dictionary_mentions_per_s": per_second(n_stream, dict_seconds),
        "cpu_seconds": round(cpu, 3), "mentions_per_cpu_s": per_second(n_stream, cpu),
    }
    msg.info(f"stream: {out['stream']['mentions_per_s']} mentions/s (exact dictionary: {out['stream']['dictionary_mentions_per_s']})")
    return out


# Accuracy of the speed options -------------------------------------------------------------------------


class BruteForceIndex:
    """Exact nearest-neighbour search over an AnnoyNameIndex's vectors (the reference for Annoy's recall)."""

    def __init__(self, index: Any, chunk: int = 32768) -> None:
        self.index = index
        self.n_items = index.n_items
        self.dim = index.dim
        self.search_k = index.search_k
        self.chunk = chunk

    def query(self, vectors: numpy.ndarray, n: int, n_threads: int = 1) -> Tuple[numpy.ndarray, numpy.ndarray]:
        n = max(1, min(n, self.n_items))
        best_ids = numpy.zeros((len(vectors), 0), dtype=numpy.int64)
        best_sims = numpy.zeros((len(vectors), 0), dtype=numpy.float32)
        for start in range(0, self.n_items, self.chunk):
            block = numpy.ascontiguousarray(self.index.item_vectors(numpy.arange(start, min(start + self.chunk, self.n_items))))
            sims = vectors @ block.T
            ids = numpy.broadcast_to(numpy.arange(start, start + len(block)), sims.shape)
            best_ids = numpy.concatenate([best_ids, ids], axis=1)
            best_sims = numpy.concatenate([best_sims, sims], axis=1)
            if best_ids.shape[1] > n:
                keep = numpy.argpartition(-best_sims, n - 1, axis=1)[:, :n]
                best_ids = numpy.take_along_axis(best_ids, keep, axis=1)
                best_sims = numpy.take_along_axis(best_sims, keep, axis=1)
        order = numpy.lexsort((best_ids, -best_sims), axis=1)
        return numpy.take_along_axis(best_ids, order, axis=1), numpy.take_along_axis(best_sims, order, axis=1).astype(numpy.float32)

    def item_vectors(self, items: numpy.ndarray) -> numpy.ndarray:
        return self.index.item_vectors(items)


def query_set(linker: KnowledgeBaseLinker, mentions: Sequence[Mention], secondary: Dict[str, str]) -> Dict[str, Any]:
    """The in-KB Bio-ID queries of the linker's reference set (ChEBI secondary ids mapped to primary)."""
    kb = linker.name
    entities = {secondary.get(kb_id, kb_id) for kb_id in linker.reference_set.kb_ids}
    split = split_in_kb(kb_queries(mentions, kb, secondary or None), entities)
    return {"queries": split["in_kb"], "strings": sorted({q.text for q in split["in_kb"]})}


def hits(linker: KnowledgeBaseLinker, queries: Dict[str, Any], secondary: Dict[str, str], mode: str = "hybrid") -> Dict[str, float]:
    """Hits@1 and @10 per occurrence, and the uncached mentions/s of the run."""
    linker.clear_cache()
    cpu_start = cpu_seconds()
    ranked, seconds = timed(lambda: linker.link(queries["strings"], top_k=10, mode=mode))
    cpu = cpu_seconds() - cpu_start
    linker.clear_cache()
    by_text = {text: [secondary.get(c.kb_id, c.kb_id) for c in cands] for text, cands in zip(queries["strings"], ranked)}
    scores = hits_at_k([by_text[q.text] for q in queries["queries"]], [q.gold for q in queries["queries"]], ks=(1, 10))
    return {"hits@1": round(scores["hits@1"], 4), "hits@10": round(scores["hits@10"], 4),
            "mentions_per_s": per_second(len(queries["strings"]), seconds), "mentions_per_cpu_s": per_second(len(queries["strings"]), cpu)}


def option_effects(linker: KnowledgeBaseLinker, queries: Dict[str, Any], secondary: Dict[str, str],
                   search_ks: Sequence[int] = SEARCH_KS, sparse_max_dfs: Sequence[float] = SPARSE_MAX_DFS) -> Dict[str, Any]:
    """Hits@1 (and speed) of the linker as configured and with one option changed at a time."""
    from spacy_nseen.encoder.layer import set_precision

    base_settings, base_search_k, base_precision = linker.settings, linker.index.search_k, linker.encoder.attrs["precision"]
    out: Dict[str, Any] = {"configured": {"settings": base_settings.to_dict(), "search_k": base_search_k, "precision": base_precision,
                                          **hits(linker, queries, secondary)}}
    out["configured_dense"] = hits(linker, queries, secondary, mode="dense")

    def variant(name: str, apply: Callable[[], None]) -> None:
        apply()
        try:
            out[name] = hits(linker, queries, secondary)
            msg.text(f"{linker.name} {name}: {out[name]}")
        finally:
            linker.settings, linker.index.search_k = base_settings, base_search_k
            set_precision(linker.encoder, base_precision)

    index = linker.index
    linker.index = BruteForceIndex(index)
    try:
        out["exact_search"] = hits(linker, queries, secondary)
        out["exact_search_dense"] = hits(linker, queries, secondary, mode="dense")
    finally:
        linker.index = index
    for search_k in search_ks:
        variant(f"search_k={search_k}", lambda s=search_k: setattr(linker.index, "search_k", s))
    for max_df in sparse_max_dfs:
        variant(f"sparse_max_df={max_df}", lambda d=max_df: setattr(linker, "settings", replace(base_settings, sparse_max_df=d)))
    for short_cut in (False, True):
        variant(f"exact_short_cut={short_cut}", lambda s=short_cut: setattr(linker, "settings", replace(base_settings, exact_short_cut=s)))
    for threads in (1, 2):
        variant(f"search_threads={threads}", lambda t=threads: setattr(linker, "settings", replace(base_settings, search_threads=t)))
    for n in (50, 20):
        variant(f"n_candidates={n}", lambda n=n: setattr(linker, "settings", replace(base_settings, n_candidates=n)))
    for precision in PRECISIONS:
        variant(f"precision={precision}", lambda p=precision: set_precision(linker.encoder, p))
    return out


def annoy_recall(linker: KnowledgeBaseLinker, strings: Sequence[str], k: int = 10, search_ks: Sequence[int] = SEARCH_KS,
                 other_n_trees: Sequence[int] = (), workdir: Optional[Path] = None) -> Dict[str, Any]:
    """Recall@k of Annoy against exact search, for the query strings' fp32 vectors, per search_k; and for
    indexes rebuilt from the same vectors with other numbers of trees (build seconds and file size too).
    Annoy is asked for n_candidates names, as the linker does (search_k=-1 means n_trees × n_candidates)."""
    from spacy_nseen.retrieval.name_index import AnnoyNameIndex

    vectors = linker.encode(strings)
    exact_ids, _ = BruteForceIndex(linker.index).query(vectors, k)
    n_candidates = max(k, linker.settings.n_candidates)
    out: Dict[str, Any] = {"n_trees": linker.index.n_trees, "queries": len(strings), "n_candidates": n_candidates}

    def recall_of(index: Any, label: str) -> None:
        saved = index.search_k
        try:
            for search_k in search_ks:
                index.search_k = search_k
                (ids, _), seconds = timed(lambda: index.query(vectors, n_candidates))
                ids = ids[:, :k]
                recall = numpy.mean([len(set(a) & set(b)) / k for a, b in zip(ids.tolist(), exact_ids.tolist())]) if len(strings) else 0.0
                out[f"{label}search_k={search_k}"] = {"recall@10": round(float(recall), 4), "queries_per_s": per_second(len(strings), seconds)}
        finally:
            index.search_k = saved

    recall_of(linker.index, "")
    for n_trees in other_n_trees:
        items = linker.index.item_vectors(numpy.arange(linker.index.n_items))
        index, seconds = timed(lambda: AnnoyNameIndex.build(items, n_trees=n_trees, seed=linker.index.seed))
        del items
        label = f"n_trees={n_trees}, "
        if workdir is not None:
            index.save(workdir / f"{linker.name}_{n_trees}.ann")
            out[f"n_trees={n_trees}"] = {"build_seconds": round(seconds, 2), "size_mb": round((workdir / f"{linker.name}_{n_trees}.ann").stat().st_size / 1e6, 1)}
        recall_of(index, label)
        del index
    return out


def encoder_throughput(linker: KnowledgeBaseLinker, names: Sequence[str]) -> Dict[str, float]:
    """Names/s of the linker's encoder at each precision."""
    from spacy_nseen.encoder.layer import encode_names, set_precision

    saved = linker.encoder.attrs["precision"]
    out = {}
    try:
        for precision in PRECISIONS:
            set_precision(linker.encoder, precision)
            encode_names(linker.encoder, list(names[:256]))
            _, seconds = timed(lambda: encode_names(linker.encoder, list(names)))
            out[precision] = per_second(len(names), seconds)
    finally:
        set_precision(linker.encoder, saved)
    return out


# Index build -------------------------------------------------------------------------------------------


def index_build(linker_dir: Path, workdir: Path, precision: Optional[str] = None, queries: Optional[Dict[str, Any]] = None,
                secondary: Optional[Dict[str, str]] = None, n_trees: Optional[int] = None,
                settings: Optional[LinkerSettings] = None) -> Dict[str, Any]:
    """Rebuild a linker from its encoder and reference set with `KnowledgeBaseLinker.build` (what
    `training.linker.build_linker` and `nseen_linker.initialize` run), timing each part; sizes of the files.
    precision: the build precision of the reference names (None: the encoder's). With `queries`, also the
    Hits@1 of the rebuilt linker."""
    from spacy_nseen.encoder.weights_io import build_encoder_from_disk
    from spacy_nseen.reference.reference_set import ReferenceSet

    meta = json.loads((linker_dir / "linker.json").read_text(encoding="utf8"))
    index_meta = json.loads((linker_dir / "names.ann.json").read_text(encoding="utf8"))
    n_trees = int(index_meta["n_trees"]) if n_trees is None else n_trees
    encoder = build_encoder_from_disk(linker_dir)
    reference, read_s = timed(lambda: ReferenceSet.from_tsv(linker_dir / "reference.tsv.gz"))
    linker, build_s = timed(lambda: KnowledgeBaseLinker.build(
        str(meta["name"]), encoder, reference, n_trees=n_trees, seed=int(index_meta.get("seed", 0)),
        with_tfidf=bool(meta.get("has_tfidf")), build_precision=precision))
    target = workdir / f"rebuilt_{meta['name']}"
    _, save_s = timed(lambda: linker.to_disk(target))
    sizes = {p.name: p.stat().st_size for p in sorted(linker_dir.iterdir()) if p.is_file()}
    rebuilt = {p.name: p.stat().st_size for p in sorted(target.iterdir()) if p.is_file()}
    parts = {"read": read_s, "build": build_s, "save": save_s}
    build_parts = dict(linker.build_seconds)
    del linker
    rebuilt_hits = None
    if queries is not None:
        defaults, search_k, _ = component_defaults()
        rebuilt_linker = KnowledgeBaseLinker.from_disk(target, settings=settings or defaults, search_k=search_k)
        rebuilt_hits = hits(rebuilt_linker, queries, secondary or {})
        rebuilt_hits["dense_hits@1"] = hits(rebuilt_linker, queries, secondary or {}, mode="dense")["hits@1"]
        del rebuilt_linker
    return {"names": len(reference), "n_trees": n_trees, "build_precision": precision or "encoder's", "rebuilt_hits": rebuilt_hits,
            "seconds": round(sum(parts.values()), 2),
            "parts_seconds": {k: round(v, 2) for k, v in parts.items()},
            "build_parts_seconds": build_parts,
            "size_mb": round(sum(sizes.values()) / 1e6, 1), "files_mb": {k: round(v / 1e6, 2) for k, v in sizes.items()},
            "rebuilt_size_mb": round(sum(rebuilt.values()) / 1e6, 1),
            "rebuilt_files_mb": {k: round(v / 1e6, 2) for k, v in rebuilt.items()}}


# Command -----------------------------------------------------------------------------------------------


@app.command()
def main(
    linkers: List[Path] = typer.Option(..., "--linkers", help="Trained linker directories (one per reference set)"),
    mentions: Path = typer.Option(..., "--mentions", help="Bio-ID mentions TSV"),
    captions: Path = typer.Option(..., "--captions", help="Bio-ID captions TSV"),
    output: Path = typer.Option(Path("results/benchmark.json"), "--output", help="JSON output (the .md goes beside it)"),
    pipeline: Optional[str] = typer.Option(None, "--pipeline", help="Pipeline path or package with nseen_linker (default: --ner + linker)"),
    ner: Optional[str] = typer.Option(None, "--ner", help="Without --pipeline: an NER pipeline to add the linkers to (default: an entity ruler of the gold mentions)"),
    split: str = typer.Option("train", "--split", help="Bio-ID split (the training release)"),
    chebi_secondary: Optional[Path] = typer.Option(None, "--chebi-secondary", help="secondary_id<TAB>primary_id TSV"),
    threads: int = typer.Option(2, "--threads", help="torch threads"),
    max_captions: int = typer.Option(0, "--max-captions", help="Pipeline captions (0: all)"),
    workdir: Optional[Path] = typer.Option(None, "--workdir", help="Scratch directory (default: a temporary one)"),
    build: bool = typer.Option(True, "--build/--no-build", help="Time the index build of each linker"),
    sections: str = typer.Option(",".join(SECTIONS), "--sections", help=f"Comma-separated parts to run: {','.join(SECTIONS)}"),
    n_trees_sweep: str = typer.Option("10,25", "--n-trees-sweep", help="Annoy indexes rebuilt with these numbers of trees for recall@10"),
    config: Optional[Path] = typer.Option(Path("configs/pipeline.cfg"), "--config",
                                          help="Pipeline config whose nseen_linker settings (and kb_settings) every linker gets"),
    article_sizes: str = typer.Option("25,100,400,1000", "--article-sizes", help="articles section: texts per article"),
    article_rounds: int = typer.Option(2, "--article-rounds", help="articles section: interleaved rounds"),
    article_min_texts: int = typer.Option(400, "--article-min-texts", help="articles section: texts per run (several articles)"),
    bioid_captions: int = typer.Option(2000, "--bioid-captions", help="articles section: Bio-ID captions grouped by article (0: none)"),
    fulltext_articles: str = typer.Option("100,1000", "--fulltext-articles",
                                          help="articles section: annotate full-text BioC corpora of these many articles ('': none)"),
    headline: Optional[Path] = typer.Option(None, "--headline", help="Merge the headline figures (ner_captions_per_s, "
                                                                     "ner_peak_rss_mb, pipeline_peak_rss_mb) into this JSON, e.g. results/headline.json"),
) -> None:
    """Benchmark linking, the pipeline, loading, memory, index build, Annoy recall and encoder precision."""
    import spacy
    import torch

    torch.set_num_threads(threads)
    command = " ".join(shlex.quote(a) for a in ["python", "-m", "training.benchmark.benchmark", *sys.argv[1:]])
    scratch = tempfile.TemporaryDirectory(prefix="nseen_benchmark_") if workdir is None else None
    work = Path(scratch.name) if scratch else workdir
    work.mkdir(parents=True, exist_ok=True)
    if chebi_secondary is None and (mentions.parent.parent / "chebi" / "secondary_to_primary.tsv.gz").exists():
        chebi_secondary = mentions.parent.parent / "chebi" / "secondary_to_primary.tsv.gz"
    secondary = read_secondary_map(chebi_secondary) if chebi_secondary else {}
    all_mentions = read_mentions(mentions, splits={split})
    loaded = {}
    settings, search_k, precision, kb_settings = configured_settings(config if config and config.exists() else None)
    for path in linkers:
        linker, seconds = timed(lambda p=path: KnowledgeBaseLinker.from_disk(p, settings=settings, search_k=search_k))
        linker.settings = settings_for(linker.name, settings, kb_settings)
        set_precision(linker.encoder, precision)
        loaded[linker.name] = linker
        msg.info(f"{linker.name}: {len(linker.reference_set)} names, loaded in {seconds:.2f}s")
    stream = mention_stream(all_mentions, list(loaded))
    results: Dict[str, Any] = {
        "command": command, "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"cpus": os.cpu_count(), "threads": threads, "python": platform.python_version(), "torch": torch.__version__,
                    "spacy": spacy.__version__, "processor": platform.processor() or platform.machine()},
        "linkers": {kb: str(p) for kb, p in zip(loaded, linkers)},
        "settings": {kb: linker.settings.to_dict() for kb, linker in loaded.items()}, "search_k": search_k, "precision": precision,
        "config": str(config) if config and config.exists() else None,
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }
    todo = {s.strip() for s in sections.split(",") if s.strip()}
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_suffix(".partial.json")  # what is measured so far, in case a later part fails

    def save_partial() -> None:
        partial.write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf8")
    other_trees = [int(t) for t in n_trees_sweep.split(",") if t.strip()]
    if "linking" in todo:
        msg.divider("Linking throughput")
        results["linking"] = linking_throughput(loaded, stream)
        save_partial()
    if "options" in todo:
        msg.divider("Options: accuracy and speed")
    results["options"], results["annoy"], results["encoder"] = {}, {}, {}
    for kb, linker in loaded.items() if "options" in todo else ():
        queries = query_set(linker, all_mentions, secondary if kb == "chebi" else {})
        results["options"][kb] = option_effects(linker, queries, secondary if kb == "chebi" else {})
        results["annoy"][kb] = annoy_recall(linker, queries["strings"], other_n_trees=other_trees, workdir=work)
        sample = [linker.reference_set.names[i] for i in numpy.random.default_rng(0).choice(len(linker.reference_set), min(20000, len(linker.reference_set)), replace=False)]
        results["encoder"][kb] = {"reference_names": encoder_throughput(linker, sample), "mentions": encoder_throughput(linker, distinct_mentions(stream, kb))}
        save_partial()
    if build and "build" in todo:
        msg.divider("Index build")
        results["index_build"] = {}
        for kb, path in zip(loaded, linkers):
            kb_secondary = secondary if kb == "chebi" else {}
            results["index_build"][kb] = index_build(path, work, component_build_precision(), query_set(loaded[kb], all_mentions, kb_secondary),
                                                     kb_secondary, settings=loaded[kb].settings)
            msg.info(f"{kb}: index built in {results['index_build'][kb]['seconds']}s {results['index_build'][kb]['parts_seconds']}")
            if component_build_precision() != "fp32":
                # the reference, to measure what the default build precision costs
                results.setdefault("index_build_fp32", {})[kb] = index_build(
                    path, work, "fp32", query_set(loaded[kb], all_mentions, kb_secondary), kb_secondary, settings=loaded[kb].settings)
            save_partial()
    if todo & {"pipeline", "load"}:
        run_pipeline(results, todo, all_mentions, loaded, linkers, captions, split, max_captions, pipeline, ner, threads, work)
    if "articles" in todo:
        if not pipeline:
            raise typer.BadParameter("the articles section needs --pipeline")
        run_articles(results, pipeline, captions, work, sizes=[int(x) for x in article_sizes.split(",") if x.strip()],
                     rounds=article_rounds, fulltext=[int(x) for x in fulltext_articles.split(",") if x.strip()],
                     bioid_captions=bioid_captions, min_texts=article_min_texts)
        save_partial()
    results["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    results["targets"] = check_targets(results)
    output.write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf8")
    partial.unlink(missing_ok=True)
    write_markdown(results, output.with_suffix(".md"))
    print_targets(results)
    if headline is not None and headline_figures(results):
        update_headline(headline, headline_figures(results), command)
        msg.good(f"Updated {headline}: {headline_figures(results)}")
    msg.good(f"Wrote {output} and {output.with_suffix('.md')}")
    if scratch:
        scratch.cleanup()


def headline_figures(results: Dict[str, Any]) -> Dict[str, float]:
    """The headline figures of a run: the NER's own (captions/s of the pipeline without `nseen_linker`, one
    process, and its peak RSS) and the full pipeline's peak RSS while annotating.

    RETURNS (Dict[str, float]): `ner_captions_per_s`, `ner_peak_rss_mb` and `pipeline_peak_rss_mb`, each only if
        its section ran.
    """
    out: Dict[str, float] = {}
    if "pipeline" in results:
        out["ner_captions_per_s"] = results["pipeline"]["without_linker"]["docs_per_s"]
    if "load_memory" in results:
        out["ner_peak_rss_mb"] = results["load_memory"]["peak_rss_mb_without_linker"]
        out["pipeline_peak_rss_mb"] = results["load_memory"]["peak_rss_mb"]
    return out


def expand_multi_value(argv: List[str], option: str) -> List[str]:
    """Let `--linkers A B` mean `--linkers A --linkers B` (the values up to the next option)."""
    out: List[str] = []
    current = False
    for arg in argv:
        if arg == option:
            current = True
            continue
        if arg.startswith("--"):
            current = False
        out += [option, arg] if current else [arg]
    return out


if __name__ == "__main__":
    sys.argv[1:] = expand_multi_value(sys.argv[1:], "--linkers")
    app()
