"""The unit of work of every engine: annotate one shard of records with a pipeline loaded once per process."""

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

from spacy.language import Language

from .articles import ArticleKey, record_docs
from .bioc import bioc_xml
from .doc_output import annotated_record
from .records import BadRecord, TextRecord

OUTPUT_FORMATS = ("jsonl", "bioc-xml")
_PIPELINES: Dict[str, Language] = {}


@dataclass(frozen=True)
class ShardTask:
    """One shard: consecutive corpus items from position `index * shard_size`.

    index (int): The shard number.
    records (List[TextRecord]): Its readable records, in corpus order.
    bad (List[BadRecord]): Its bad records.
    articles (Optional[List[Optional[ArticleKey]]]): per record its (article, figure) (`articles.record_keys`),
        None: no context (each text alone).
    """

    index: int
    records: List[TextRecord]
    bad: List[BadRecord] = field(default_factory=list)
    articles: Optional[List[Optional[ArticleKey]]] = None


@dataclass(frozen=True)
class ShardResult:
    """A shard's output text (the whole file) and its counts (`texts`, `entities`, `linked` per KB prefix,
    `unlinked`, `bad_records`)."""

    index: int
    payload: str
    stats: Dict[str, Any]


def limit_threads(n_threads: int) -> None:
    """Give this process `n_threads` compute threads: torch's intra-op pool and the BLAS/OpenMP pools numpy
    uses (a forked worker would otherwise inherit its parent's BLAS pool and oversubscribe the cores).

    n_threads (int): Threads (1 for one worker per core).
    """
    import torch
    from threadpoolctl import threadpool_limits

    torch.set_num_threads(n_threads)
    threadpool_limits(limits=n_threads)


def load_pipeline(name: str, n_threads: Optional[int] = None) -> Language:
    """Load a pipeline once per process (a package name or a path) and keep it.

    name (str): What `spacy.load` takes.
    n_threads (Optional[int]): Set torch's intra-op threads (1 for one worker per core).
    RETURNS (Language): The pipeline.
    """
    if name not in _PIPELINES:
        import spacy
        from spacy.util import ConfigValidationError

        from ..parts.legacy import legacy_hint

        if n_threads is not None:
            limit_threads(n_threads)
        try:
            _PIPELINES[name] = spacy.load(name)
        except ConfigValidationError as err:
            hint = legacy_hint(err)
            if not hint:
                raise
            raise ConfigValidationError(desc=f"{name}: {hint}") from None
    return _PIPELINES[name]


def clear_link_caches(nlp: Language) -> None:
    """Empty the mention caches of every linker in the pipeline, so that a shard's output depends on the
    shard alone and not on which shards the process annotated before (scores of a mention can differ in the
    last bits with the batch it was first encoded in)."""
    for _, pipe in nlp.pipeline:
        for linker in getattr(pipe, "linkers", {}).values():
            if hasattr(linker, "clear_cache"):
                linker.clear_cache()


def annotate_shard(
    pipeline: str,
    task: ShardTask,
    output_format: str = "jsonl",
    batch_size: int = 64,
    n_threads: Optional[int] = None,
    on_text: Optional[Callable[[], None]] = None,
) -> ShardResult:
    """Annotate one shard.

    pipeline (str): The pipeline's package name or path (loaded once per process).
    task (ShardTask): The shard.
    output_format (str): `jsonl` or `bioc-xml`.
    batch_size (int): Docs per `nlp.pipe` batch.
    n_threads (Optional[int]): torch threads, set when the pipeline is first loaded.
    on_text (Optional[Callable[[], None]]): called after each text (progress; in this process only).
    RETURNS (ShardResult): The shard's file text and counts.
    """
    if output_format not in OUTPUT_FORMATS:
        raise ValueError(f"output format {output_format!r}: use one of {OUTPUT_FORMATS}")
    nlp = load_pipeline(pipeline, n_threads)
    clear_link_caches(nlp)
    docs = nlp.pipe(record_docs(nlp, task.records, task.articles), batch_size=batch_size)
    annotated = []
    for record, doc in zip(task.records, docs):
        annotated.append(annotated_record(record, doc))
        if on_text is not None:
            on_text()
    linked: Counter = Counter()
    unlinked = 0
    for entity in (e for a in annotated for e in a["entities"]):
        if entity.get("kb_id"):
            linked[entity["kb_id"].split(":", 1)[0]] += 1
        elif entity.get("kb_candidates") is not None:
            unlinked += 1
    if output_format == "jsonl":
        payload = "".join(json.dumps(a, ensure_ascii=False) + "\n" for a in annotated)
    else:
        payload = bioc_xml(annotated)
    stats = {
        "texts": len(annotated),
        "entities": sum(len(a["entities"]) for a in annotated),
        "linked": dict(sorted(linked.items())),
        "unlinked": unlinked,
        "bad_records": [b.to_dict() for b in task.bad],
    }
    return ShardResult(task.index, payload, stats)
