"""Read and write (optionally gzipped) UTF-8 TSV files with a header row.

Every reading error (missing file, broken gzip stream, bad encoding, missing
columns) is raised as a `DataFileError` that names the file and what to do.
"""
import csv
import gzip
import io
import os
import zlib
from pathlib import Path
from typing import IO, Dict, Iterable, Iterator, List, Optional, Sequence, Union

from .data_errors import DataFileError

PathLike = Union[str, Path]
REFETCH = "Run the fetch step again (python -m training.data.fetch ...) or check the mirror directory"


def _open_text(path: Path) -> IO[str]:
    if not path.exists():
        raise DataFileError(path, "file not found", REFETCH)
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", newline="")
    return open(path, encoding="utf-8", newline="")


def iter_tsv(
    path: PathLike,
    required: Sequence[str] = (),
    *,
    header_map: Optional[Dict[str, str]] = None,
) -> Iterator[Dict[str, str]]:
    """Yield the rows of a TSV file as dicts keyed by the header.

    path (PathLike): The file, `.gz` for gzip.
    required (Sequence[str]): Columns that must be in the header.
    header_map (Optional[Dict[str, str]]): Rename header columns (e.g. upper-case
        official names to the keys used by the caller).
    YIELDS (Dict[str, str]): One row; missing trailing cells are "".
    """
    path = Path(path)
    lineno = 1
    try:
        with _open_text(path) as f:
            reader = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
            header = next(reader, None)
            if header is None:
                raise DataFileError(path, "file is empty (no header row)", REFETCH)
            header = [h.strip().lstrip("\ufeff") for h in header]
            if header_map:
                header = [header_map.get(h, h) for h in header]
            missing = [c for c in required if c not in header]
            if missing:
                raise DataFileError(
                    path,
                    f"missing column(s) {missing} (header has {header})",
                    "Is this the right file for this step? " + REFETCH,
                )
            width = len(header)
            for lineno, cells in enumerate(reader, start=2):
                if not cells:
                    continue
                if len(cells) < width:
                    cells = cells + [""] * (width - len(cells))
                yield dict(zip(header, cells))
    except (gzip.BadGzipFile, EOFError, zlib.error) as err:
        raise DataFileError(
            path, f"corrupt or truncated gzip file near line {lineno} ({err})", REFETCH
        ) from err
    except UnicodeDecodeError as err:
        raise DataFileError(path, f"not valid UTF-8 near line {lineno} ({err})", REFETCH) from err
    except csv.Error as err:
        raise DataFileError(path, f"malformed TSV near line {lineno} ({err})", REFETCH) from err


def write_tsv(path: PathLike, header: Sequence[str], rows: Iterable[Sequence[object]]) -> int:
    """Write a TSV file atomically (to a temporary file, renamed when complete).

    path (PathLike): The output file, gzipped if it ends in `.gz`.
    header (Sequence[str]): The header row.
    rows (Iterable[Sequence[object]]): The rows; cells must not contain tabs or newlines.
    RETURNS (int): The number of rows written (without the header).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    n = 0
    try:
        raw: IO[bytes]
        if path.suffix == ".gz":
            raw = gzip.GzipFile(tmp, "wb", compresslevel=6, mtime=0)
        else:
            raw = open(tmp, "wb")
        with raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as f:
            f.write("\t".join(header) + "\n")
            for row in rows:
                f.write("\t".join(str(c) for c in row) + "\n")
                n += 1
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return n


def read_columns(path: PathLike, columns: Sequence[str]) -> List[List[str]]:
    """Read some columns of a TSV file into lists (one list per column).

    path (PathLike): The file.
    columns (Sequence[str]): The columns to read.
    RETURNS (List[List[str]]): The values, one list per requested column.
    """
    out: List[List[str]] = [[] for _ in columns]
    for row in iter_tsv(path, columns):
        for values, col in zip(out, columns):
            values.append(row[col])
    return out
