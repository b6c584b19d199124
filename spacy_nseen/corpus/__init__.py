"""Annotate a corpus with a pipeline: readers (JSONL, .txt directory, BioC XML/JSON, captions TSV), sharded
and resumable output (JSONL, BioC XML), and engines (this process, local processes, a Dask cluster)."""

from .annotate import annotate_corpus
from .engines import InProcessEngine, ProcessPoolEngine
from .errors import CorpusError
from .readers import READERS, detect_format, read_corpus
from .records import BadRecord, TextRecord
from .worker import OUTPUT_FORMATS

__all__ = [
    "OUTPUT_FORMATS",
    "READERS",
    "BadRecord",
    "CorpusError",
    "InProcessEngine",
    "ProcessPoolEngine",
    "TextRecord",
    "annotate_corpus",
    "detect_format",
    "read_corpus",
]
