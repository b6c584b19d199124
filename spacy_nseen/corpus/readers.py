"""Choose the reader of a corpus by its format (given, or guessed from the path)."""

from pathlib import Path
from typing import Callable, Dict, Iterator, Optional

from .bioc import read_bioc_json, read_bioc_xml
from .errors import CorpusError
from .line_readers import iter_lines, read_captions_tsv, read_jsonl, read_text_dir
from .records import CorpusItem

READERS: Dict[str, Callable[[Path], Iterator[CorpusItem]]] = {
    "jsonl": read_jsonl,
    "txt": read_text_dir,
    "bioc-xml": read_bioc_xml,
    "bioc-json": read_bioc_json,
    "tsv": read_captions_tsv,
}
SUFFIXES = {".jsonl": "jsonl", ".xml": "bioc-xml", ".json": "bioc-json", ".tsv": "tsv"}


def detect_format(path: Path) -> str:
    """Guess a corpus's format: a directory is `txt`; otherwise the suffix before an optional `.gz`.

    path (Path): The corpus.
    RETURNS (str): One of `READERS`.
    """
    if path.is_dir():
        return "txt"
    if not path.exists():
        raise CorpusError(path, "no such file or directory", "Check the INPUT path")
    suffixes = [s for s in path.suffixes if s != ".gz"]
    found = SUFFIXES.get(suffixes[-1] if suffixes else "")
    if found is None:
        raise CorpusError(path, "cannot tell the format from the name", f"Pass --format, one of {sorted(READERS)}")
    return found


def read_corpus(path: Path, corpus_format: str = "auto") -> Iterator[CorpusItem]:
    """Read a corpus.

    path (Path): A file or (format `txt`) a directory.
    corpus_format (str): `auto` or one of `READERS`.
    YIELDS (CorpusItem): Records and bad records, in the corpus's order.
    """
    name = detect_format(path) if corpus_format == "auto" else corpus_format
    if name not in READERS:
        raise CorpusError(path, f"unknown format {name!r}", f"Use one of {sorted(READERS)} or 'auto'")
    yield from READERS[name](path)


def count_items(path: Path, corpus_format: str = "auto") -> Optional[int]:
    """Count a corpus's items cheaply, for a progress bar's ETA: the non-blank lines of JSONL/TSV (minus the
    header), the `.txt` files of a directory; None for BioC (counting would mean parsing it).

    RETURNS (Optional[int]): The count (bad records included), or None.
    """
    name = detect_format(path) if corpus_format == "auto" else corpus_format
    if name == "txt":
        return sum(1 for _ in path.rglob("*.txt"))
    if name in ("jsonl", "tsv"):
        n = sum(1 for _, line, bad in iter_lines(path) if bad is not None or (line or "").strip())
        return max(0, n - 1) if name == "tsv" else n
    return None
