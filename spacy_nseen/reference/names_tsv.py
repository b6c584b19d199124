"""A user's own names file: `kb_id<TAB>name[<TAB>kind]` rows, the header row optional.

The format `python -m spacy_nseen build-kb` and `train-encoder` read. UTF-8 (a byte-order mark is ignored),
gzipped when the name ends in `.gz`. The first line is a header when its first two columns are exactly
`kb_id` and `name`; otherwise it is a row. Blank lines are skipped; extra columns after `kind` are ignored;
duplicate (kb_id, name) rows count once. A row with fewer than two columns or an empty id or name is an
error naming the file and the line.
"""

import gzip
from pathlib import Path
from typing import List, Tuple, Union

from ..errors import ArtifactError
from .reference_set import HEADER, ReferenceSet, open_text

FIX = (
    "Write one name per line as 'kb_id<TAB>name' or 'kb_id<TAB>name<TAB>kind' (UTF-8, tab-separated; "
    "an optional first line 'kb_id<TAB>name<TAB>kind')"
)


def is_header(columns: List[str]) -> bool:
    """RETURNS (bool): whether a first line's columns are the header `kb_id, name[, kind]`."""
    return [c.strip().lower() for c in columns[:2]] == list(HEADER[:2])


def read_names_tsv(path: Union[str, Path]) -> ReferenceSet:
    """Read a names file into a ReferenceSet.

    path (Union[str, Path]): the TSV file.
    RETURNS (ReferenceSet): one row per distinct (kb_id, name).
    Raises ArtifactError naming the file (and line) when it is missing, unreadable, malformed or empty.
    """
    path = Path(path)
    if not path.is_file():
        raise ArtifactError(path, "names file not found", FIX)
    rows: List[Tuple[str, str, str]] = []
    try:
        with open_text(path) as file_:
            for line_no, line in enumerate(file_, start=1):
                line = line.rstrip("\r\n")
                if line_no == 1:
                    line = line.lstrip("\ufeff")
                if not line.strip():
                    continue
                columns = line.split("\t")
                if line_no == 1 and is_header(columns):
                    continue
                if len(columns) < 2:
                    raise ArtifactError(path, f"line {line_no} has no tab: {line[:60]!r}", FIX)
                kb_id, name = columns[0].strip(), columns[1].strip()
                if not kb_id or not name:
                    raise ArtifactError(path, f"line {line_no} has an empty {'kb_id' if not kb_id else 'name'}", FIX)
                rows.append((kb_id, name, columns[2].strip() if len(columns) > 2 else ""))
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as err:
        raise ArtifactError(path, f"cannot be read ({err})", FIX) from None
    if not rows:
        raise ArtifactError(path, "contains no names", FIX)
    return ReferenceSet.from_rows(rows)
