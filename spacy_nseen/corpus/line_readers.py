"""Readers of line-based corpora (JSONL, the mirror's captions TSV) and of a directory of `.txt` files.

Each reader yields `TextRecord`s and `BadRecord`s in a fixed order; a record that cannot be read (invalid
JSON, missing text, not UTF-8, a short TSV row) is yielded as a `BadRecord` with its position, and reading
goes on with the next one. A file that cannot be opened at all raises `CorpusError`.
"""

import gzip
import json
import zlib
from pathlib import Path
from typing import IO, Iterator, List, Optional, Tuple, cast

from .errors import CorpusError
from .records import BadRecord, CorpusItem, TextRecord

TSV_ID_COLUMNS = ("caption_id", "id")


def open_binary(path: Path) -> IO[bytes]:
    """Open a file for reading bytes, through gzip when its name ends in `.gz`.

    path (Path): The file.
    RETURNS (IO[bytes]): The open file.
    """
    if not path.is_file():
        raise CorpusError(path, "file not found", "Check the INPUT path")
    # a GzipFile is a binary file object, though typeshed does not declare it an IO[bytes]
    return cast(IO[bytes], gzip.open(path, "rb")) if path.suffix == ".gz" else open(path, "rb")


def iter_lines(path: Path) -> Iterator[Tuple[int, Optional[str], Optional[BadRecord]]]:
    """Yield `(line number, decoded line, None)` or `(line number, None, BadRecord)` for non-UTF-8 lines.

    A truncated or corrupt gzip stream ends the file with one `BadRecord`.
    """
    lineno = 0
    try:
        with open_binary(path) as f:
            for lineno, raw in enumerate(f, start=1):
                try:
                    yield lineno, raw.decode("utf-8").rstrip("\r\n"), None
                except UnicodeDecodeError as err:
                    yield (
                        lineno,
                        None,
                        BadRecord(f"{path.name}:{lineno}", f"not valid UTF-8 ({err.reason} at byte {err.start})"),
                    )
    except (EOFError, gzip.BadGzipFile, zlib.error) as err:
        yield (
            lineno + 1,
            None,
            BadRecord(f"{path.name}:{lineno + 1}", f"corrupt or truncated gzip stream, rest of file skipped ({err})"),
        )


def read_jsonl(path: Path) -> Iterator[CorpusItem]:
    """Read a JSONL corpus: one object `{"id": ..., "text": ..., ...}` per line; blank lines are skipped.

    path (Path): The file (`.jsonl` or `.jsonl.gz`).
    YIELDS (CorpusItem): A record per line; fields other than id and text are kept in `meta`. The id is kept
        as given (a string or a number; another type is a bad record); a record without one gets `name:line`
        (counted as `generated_ids` in the summary).
    """
    for lineno, line, bad in iter_lines(path):
        position = f"{path.name}:{lineno}"
        if bad is not None:
            yield bad
            continue
        assert line is not None
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            yield BadRecord(position, f"invalid JSON ({err.msg} at column {err.colno})")
            continue
        if not isinstance(obj, dict):
            yield BadRecord(position, f"expected a JSON object, found {type(obj).__name__}")
            continue
        text = obj.get("text")
        if not isinstance(text, str):
            yield BadRecord(
                position, "missing text" if text is None else f"text is a {type(text).__name__}, not a string"
            )
            continue
        record_id = obj.get("id")
        if record_id is not None and (isinstance(record_id, bool) or not isinstance(record_id, (str, int, float))):
            yield BadRecord(position, f"id is a {type(record_id).__name__}; give a string or a number")
            continue
        meta = {k: v for k, v in obj.items() if k not in ("id", "text")}
        if record_id is None:
            yield TextRecord(position, text, meta, generated_id=True)
        else:
            yield TextRecord(record_id, text, meta)


def read_captions_tsv(path: Path) -> Iterator[CorpusItem]:
    """Read the mirror's captions TSV (header row; columns `caption_id` or `id`, and `text`; tab-separated,
    no quoting; `.gz` allowed).

    path (Path): The file.
    YIELDS (CorpusItem): A record per row; the other columns go into `meta`.
    """
    header: Optional[List[str]] = None
    id_column = ""
    for lineno, line, bad in iter_lines(path):
        position = f"{path.name}:{lineno}"
        if header is None:
            if bad is not None or line is None:
                raise CorpusError(path, "the header row is not valid UTF-8", "Is this a captions TSV?")
            header = [h.strip().lstrip("\ufeff") for h in line.split("\t")]
            id_column = next((c for c in TSV_ID_COLUMNS if c in header), "")
            if "text" not in header or not id_column:
                raise CorpusError(
                    path,
                    f"the header {header} lacks a 'text' column or an id column {list(TSV_ID_COLUMNS)}",
                    "Give a TSV in the mirror's captions format (see ../shared/data/README.md) or use --format",
                )
            continue
        if bad is not None:
            yield bad
            continue
        assert line is not None
        if not line.strip():
            continue
        cells = line.split("\t")
        if len(cells) != len(header):
            yield BadRecord(position, f"row has {len(cells)} fields, the header has {len(header)}")
            continue
        row = dict(zip(header, cells))
        meta = {k: v for k, v in row.items() if k not in (id_column, "text")}
        yield TextRecord(row[id_column], row["text"], meta)


def read_text_dir(path: Path) -> Iterator[CorpusItem]:
    """Read every `*.txt` file of a directory (recursively, in sorted path order) as one record.

    path (Path): The directory.
    YIELDS (CorpusItem): A record per file, its id the path relative to the directory without `.txt`.
    """
    if not path.is_dir():
        raise CorpusError(path, "not a directory", "Give a directory of .txt files, or a file with --format")
    for file in sorted(path.rglob("*.txt")):
        relative = file.relative_to(path).as_posix()
        try:
            text = file.read_bytes().decode("utf-8")
        except UnicodeDecodeError as err:
            yield BadRecord(relative, f"not valid UTF-8 ({err.reason} at byte {err.start})")
            continue
        except OSError as err:
            yield BadRecord(relative, f"unreadable ({err.strerror})")
            continue
        yield TextRecord(relative[: -len(".txt")], text, {})
