"""Annotate a corpus into an output directory of shards: check the settings and the pipeline (before anything is
written), read, split into shards, skip the completed ones, run the rest on an engine, write each atomically,
and summarise (with the duplicate and generated ids, `record_ids`).

Output records are described by the JSON Schema `annotation_record.schema.json` beside this module
(`RECORD_SCHEMA`)."""

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Union

from .articles import KeyFunction, article_key_function, record_keys, shard_chunks
from .engines import Engine, InProcessEngine
from .progress import AnnotationProgress
from .readers import count_items, read_corpus
from .record_ids import IdCheck
from .records import BadRecord, TextRecord
from .shards import BAD_RECORDS, SUMMARY, ShardStore, write_atomic
from .validation import check_pipeline, check_settings
from .worker import ShardTask

PathLike = Union[str, Path]
RECORD_SCHEMA = Path(__file__).with_name("annotation_record.schema.json")


def pipeline_identity(pipeline: str) -> str:
    """RETURNS (str): The pipeline as the manifest records it: an existing path made absolute, else the name."""
    path = Path(pipeline)
    return str(path.resolve()) if path.exists() else pipeline


def input_identity(path: Path) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): The input's absolute path, and for a file its size and modification time."""
    identity: Dict[str, Any] = {"path": str(path.resolve())}
    if path.is_file():
        stat = path.stat()
        identity.update(size=stat.st_size, mtime_ns=stat.st_mtime_ns)
    return identity


class ShardPlan:
    """Cuts the corpus into shards of `shard_size` items (bad records count, so the cut never moves) and
    passes on the shards not yet done; `n_shards`/`n_items` are complete once iteration ends."""

    def __init__(
        self,
        items: Iterator[Union[TextRecord, BadRecord]],
        shard_size: int,
        store: ShardStore,
        progress: AnnotationProgress,
        article_key: Optional[KeyFunction] = None,
        ids: Optional[IdCheck] = None,
    ) -> None:
        self.items, self.shard_size, self.store, self.progress = items, shard_size, store, progress
        self.article_key = article_key  # a record's article: shards end between articles, texts get their context
        self.ids = ids if ids is not None else IdCheck()
        self.n_shards = 0
        self.n_items = 0
        self.resumed = 0

    def _task(self, index: int, chunk: List[Union[TextRecord, BadRecord]]) -> Optional[ShardTask]:
        self.n_shards = index + 1
        self.n_items += len(chunk)
        for item in chunk:
            if isinstance(item, TextRecord):
                self.ids.add(item.id, item.generated_id)
        if self.store.is_done(index):
            self.resumed += 1
            self.progress.skip(len(chunk))
            return None
        records = [x for x in chunk if isinstance(x, TextRecord)]
        bad = [x for x in chunk if isinstance(x, BadRecord)]
        return ShardTask(index, records, bad, record_keys(records, self.article_key))

    def __iter__(self) -> Iterator[ShardTask]:
        for index, chunk in enumerate(shard_chunks(self.items, self.shard_size, self.article_key)):
            task = self._task(index, chunk)
            if task is not None:
                yield task


def summarise(store: ShardStore, n_shards: int, resumed: int, seconds: float, texts_this_run: int) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): Totals over all shards, and the time and rate of this run."""
    totals: Counter = Counter()
    linked: Counter = Counter()
    for index in range(n_shards):
        stats = store.stats(index)
        totals.update(
            texts=stats["texts"],
            entities=stats["entities"],
            unlinked=stats["unlinked"],
            bad_records=len(stats["bad_records"]),
        )
        linked.update(stats["linked"])
    return {
        "texts": totals["texts"],
        "bad_records": totals["bad_records"],
        "entities": totals["entities"],
        "linked": dict(sorted(linked.items())),
        "unlinked": totals["unlinked"],
        "shards": n_shards,
        "shards_resumed": resumed,
        "seconds": round(seconds, 3),
        "texts_this_run": texts_this_run,
        "texts_per_second": round(texts_this_run / seconds, 2) if seconds > 0 else None,
    }


def annotate_corpus(
    input_path: PathLike,
    output_dir: PathLike,
    pipeline: str,
    *,
    engine: Optional[Engine] = None,
    input_format: str = "auto",
    output_format: str = "jsonl",
    shard_size: int = 1000,
    batch_size: int = 64,
    overwrite: bool = False,
    progress: bool = True,
    context: bool = True,
    check: bool = True,
) -> Dict[str, Any]:
    """Annotate a corpus with a pipeline; resume if `output_dir` holds shards of the same run.

    input_path (PathLike): JSONL, a directory of .txt, BioC XML/JSON or a captions TSV (see `readers`).
    output_dir (PathLike): Directory of shards (`shards.py`), `summary.json` and `bad_records.jsonl`.
    pipeline (str): A pipeline package name or path.
    engine (Optional[Engine]): Where shards run (default: this process). Its pipeline, output format and
        batch size must be the ones given here.
    input_format (str): `auto` or a format name.
    output_format (str): `jsonl` or `bioc-xml`.
    shard_size (int): Corpus items per shard (the unit of resume).
    batch_size (int): Docs per `nlp.pipe` batch.
    overwrite (bool): Replace the shards of a run with other settings.
    progress (bool): Show progress (a bar on a terminal, plain lines otherwise; texts/s of this run).
    context (bool): Give each text the other texts of its article as context (`articles`: BioC documents, JSONL
        `article`/`figure` fields, the captions TSV's `pmc_id`); shards then end between articles.
    check (bool): Check that `pipeline` is an installed package or a pipeline directory before writing anything.
    RETURNS (Dict[str, Any]): The summary (also written to `summary.json`).
    """
    input_path, output_dir = Path(input_path), Path(output_dir)
    resolved_format = check_settings(input_path, input_format, output_format, shard_size, batch_size)
    if check:
        check_pipeline(pipeline)
    settings = {
        "input": input_identity(input_path),
        "input_format": resolved_format,
        "output_format": output_format,
        "shard_size": shard_size,
        "pipeline": pipeline_identity(pipeline),
        "context": context,
    }
    if engine is not None and engine.output_format != output_format:
        raise ValueError(f"the engine writes {engine.output_format!r} but output_format is {output_format!r}")
    store = ShardStore(output_dir, settings, overwrite=overwrite)
    own_engine = engine is None
    engine = engine or InProcessEngine(pipeline, output_format, batch_size)
    total = count_items(input_path, resolved_format) if progress else None
    start = time.perf_counter()
    texts_this_run = 0
    ids = IdCheck()
    with AnnotationProgress(total, enabled=progress) as bar:
        key = article_key_function(resolved_format, context)
        plan = ShardPlan(read_corpus(input_path, resolved_format), shard_size, store, bar, key, ids)
        per_text = isinstance(engine, InProcessEngine)  # it reports each text as it is done
        if isinstance(engine, InProcessEngine):
            engine.on_text = lambda: bar.update(1)
        try:
            for result in engine.run(plan):
                store.write(result)
                texts_this_run += result.stats["texts"]
                bar.update(0 if per_text else result.stats["texts"], len(result.stats["bad_records"]))
        finally:
            if isinstance(engine, InProcessEngine):
                engine.on_text = None
            if own_engine:
                engine.close()
    summary = summarise(store, plan.n_shards, plan.resumed, time.perf_counter() - start, texts_this_run)
    summary.update(ids.summary())
    bad_lines = "".join(json.dumps(b, ensure_ascii=False) + "\n" for b in store.iter_bad_records(plan.n_shards))
    write_atomic(output_dir / BAD_RECORDS, bad_lines)
    write_atomic(output_dir / SUMMARY, json.dumps(summary, indent=2) + "\n")
    return summary
