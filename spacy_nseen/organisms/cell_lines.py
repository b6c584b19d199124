"""Cell line → species: a compact table built from Cellosaurus, and a matcher for captions.

The table (saved as gzip JSON in columns, see `cell_line_file`) has one key per cell line name or synonym, normalised by
`cell_line_key` (case-folded, only letters and digits: `NIH/3T3`, `NIH 3T3` and `nih3t3` share a key).
A name of cell lines of several species keeps every taxon, the most frequent first (ties: the taxon of the
oldest accession, so `PC-12` → rat before the rare human line of that name). Names that are also protein or
chemical names (`HuR`, `CCl4`) are listed as confusable: read as a cell line only before "cells".
Primary cells (MEFs, BMDMs) are not Cellosaurus lines: see `lexicon.PRIMARY_CELLS`.
"""

import csv
import gzip
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union

from ..errors import ArtifactError
from .cell_line_file import FORMAT, VERSION, CellLineColumns, columns_from_names, read_columns, write_columns

__all__ = [
    "FORMAT",
    "VERSION",
    "CellLineHit",
    "CellLineTable",
    "build_table",
    "cell_line_key",
    "looks_like_cell_line",
    "name_starts",
    "read_cellosaurus",
]
PathLike = Union[str, Path]

# Species of Cellosaurus rows that the mirror left without a taxon id (NCBI Taxonomy ids).
EXTRA_SPECIES_TAXA: Dict[str, int] = {
    "Mesocricetus auratus": 10036,
    "Pan troglodytes": 9598,
    "Felis catus": 9685,
    "Chlorocebus aethiops": 9534,
    "Chlorocebus sabaeus": 60711,
    "Macaca mulatta": 9544,
    "Macaca fascicularis": 9541,
    "Macaca nemestrina": 9545,
    "Bombyx mori": 7091,
    "Spodoptera frugiperda": 7108,
    "Trichoplusia ni": 7111,
    "Oryzias latipes": 8090,
    "Oncorhynchus mykiss": 8022,
    "Gorilla gorilla gorilla": 9595,
    "Meleagris gallopavo": 9103,
}
# Cell line names that are also everyday lab words, tags or protein names (never read as a cell line).
STOP_KEYS: Set[str] = {
    "wt",
    "ko",
    "gfp",
    "yfp",
    "rfp",
    "cfp",
    "ha",
    "flag",
    "myc",
    "dapi",
    "pbs",
    "dmso",
    "control",
    "mock",
    "input",
    "lysate",
    "cells",
    "cell",
    "ctrl",
    "vector",
    "empty",
    "none",
    "day",
    "days",
    "time",
    "dna",
    "rna",
    "sirna",
    "shrna",
    "mrna",
    "total",
    "ip",
    "ib",
    "wb",
    "if",
    "ihc",
    "fitc",
    "mean",
    "sd",
    "sem",
    # immune and other cell types that share a name with a cell line (`NK cells`, `Th1 cells`)
    "th1",
    "th2",
    "th9",
    "th17",
    "tfh",
    "treg",
    "tregs",
    "nk",
    "nkt",
    "dc",
    "dcs",
    "ilc2",
    "ilc3",
    "cd4",
    "cd8",
    "b1",
    "m1",
    "m2",
    "es",
    "ips",
    "oe",
    "rs",
    "bimel",
    "s2",
    "mast",
    "scc",
    "stem",
    "germ",
    "tumor",
    "tumour",
    "cancer",
    "immune",
    "blood",
    "muscle",
    "islet",
    "glia",
    "glial",
    "neuron",
    "neurons",
}
# Short names read as cell lines without "cells" after them.
ALWAYS_CELL_LINES: Set[str] = {"cho", "hek", "cos", "nrk", "rko", "3t3", "mdck", "k562", "hela"}
# Words that start a multi-word match only by accident (`at 24 h` → the line "At 24").
STOP_FIRST_TOKENS: Set[str] = {
    "at",
    "in",
    "on",
    "of",
    "to",
    "by",
    "as",
    "is",
    "or",
    "an",
    "no",
    "and",
    "the",
    "for",
    "with",
    "from",
    "day",
    "days",
    "lane",
    "lanes",
    "panel",
    "fig",
    "figure",
    "h",
    "min",
    "wt",
    "ko",
    "mab",
    "clone",
}
_TOKEN_RE = re.compile(r"[A-Za-z0-9]+")
_GAP_CHARS = " ./-‐‑"
_CELLS_AFTER = re.compile(r"^[\s-]*(?:cells?|cell\s+lines?|line)\b", re.IGNORECASE)
MAX_TOKENS = 4
_GLUED_SUFFIXES = ("cells", "cell")
_HYPHENS = "-‐‑–"
_LETTER_DIGIT = re.compile(r"(?<=[a-z])(?=[0-9])|(?<=[0-9])(?=[a-z])")


def cell_line_key(name: str) -> str:
    """RETURNS (str): The lookup key of a cell line name: case-folded letters and digits only."""
    return "".join(_TOKEN_RE.findall(name)).casefold()


@dataclass(frozen=True)
class CellLineHit:
    """A cell line name found in a text: offsets, the taxa of its lines (best first) and its text."""

    start: int
    end: int
    taxa: Tuple[int, ...]
    text: str

    @property
    def ambiguous(self) -> bool:
        """RETURNS (bool): Whether lines of several species share the name."""
        return len(self.taxa) > 1


def build_table(rows: Iterable[Dict[str, str]]) -> Dict[str, List[List[int]]]:
    """Build the name table from Cellosaurus rows (cellosaurus_id, name, species, taxon_id).

    Rows of a species without a taxon id (hybrids, rare species) are skipped; keys shorter than 2
    characters, purely numeric keys and STOP_KEYS are dropped.
    RETURNS (Dict[str, List[List[int]]]): key → [[taxon, n_lines], ...], most lines first.
    """
    lines: Dict[str, Dict[int, Set[str]]] = defaultdict(lambda: defaultdict(set))
    for row in rows:
        taxon_text = (row.get("taxon_id") or "").strip()
        taxon = int(taxon_text) if taxon_text.isdigit() else EXTRA_SPECIES_TAXA.get(row.get("species", ""))
        key = cell_line_key(row.get("name") or "")
        if taxon is None or len(key) < 2 or key.isdigit() or key in STOP_KEYS:
            continue
        lines[key][taxon].add(row.get("cellosaurus_id") or "")
    table: Dict[str, List[List[int]]] = {}
    for key in sorted(lines):
        by_taxon = lines[key]
        order = sorted(by_taxon, key=lambda t: (-len(by_taxon[t]), min(by_taxon[t]), t))
        table[key] = [[t, len(by_taxon[t])] for t in order]
    return table


def read_cellosaurus(path: PathLike) -> Iterator[Dict[str, str]]:
    """Read the mirror's `cell_line_species.tsv.gz` (header: cellosaurus_id, name, species, taxon_id)."""
    path = Path(path)
    if not path.exists():
        raise ArtifactError(
            path, "Cellosaurus table not found", "Point the build at the mirror's cellosaurus/cell_line_species.tsv.gz"
        )
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf8", newline="") as f:
            reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
            missing = {"cellosaurus_id", "name", "species", "taxon_id"} - set(reader.fieldnames or [])
            if missing:
                raise ArtifactError(
                    path,
                    f"lacks the column(s) {sorted(missing)}",
                    "Use the mirror's cellosaurus/cell_line_species.tsv.gz format",
                )
            yield from reader
    except (OSError, EOFError, UnicodeDecodeError, csv.Error) as e:
        raise ArtifactError(
            path, f"could not be read ({type(e).__name__}: {e})", "Copy it again from the mirror"
        ) from e


class CellLineTable:
    """Cell line names → taxa, with a matcher over free text."""

    def __init__(self, columns: CellLineColumns) -> None:
        """columns (CellLineColumns): the table (see `from_names`, `cell_line_file`); its `starts` are derived if None."""
        self.source = columns.source
        self._columns = columns
        self._index: Dict[str, int] = dict(zip(columns.keys, range(len(columns.keys))))
        self.confusable: Set[str] = set(columns.confusable) & self._index.keys()
        if columns.starts is None:
            columns.starts = sorted(name_starts(columns.keys) - self._index.keys())
        self._starts: Set[str] = set(columns.starts)
        self._starts.update(columns.keys)

    @classmethod
    def from_names(
        cls, names: Dict[str, List[List[int]]], source: str = "", confusable: Iterable[str] = ()
    ) -> "CellLineTable":
        """names (Dict[str, List[List[int]]]): key → [[taxon, n_lines], ...] (see `build_table`).
        source (str): Where the table came from. confusable (Iterable[str]): keys that are also protein
            or chemical names (read as a cell line only before "cells").
        """
        return cls(columns_from_names(names, list(confusable), source))

    @property
    def names(self) -> Dict[str, List[List[int]]]:
        """RETURNS (Dict[str, List[List[int]]]): key → [[taxon, n_lines], ...], most lines first."""
        c = self._columns
        return {
            key: [[c.taxa[j], c.n_lines[j]] for j in range(c.offsets[i], c.offsets[i + 1])]
            for i, key in enumerate(c.keys)
        }

    def __len__(self) -> int:
        return len(self._index)

    def _taxa(self, key: str) -> Tuple[int, ...]:
        i = self._index.get(key)
        if i is None:
            return ()
        offsets = self._columns.offsets
        return tuple(self._columns.taxa[offsets[i] : offsets[i + 1]])

    def lookup(self, name: str) -> Tuple[int, ...]:
        """RETURNS (Tuple[int, ...]): The taxa of the cell lines called `name` (best first), or ()."""
        return self._taxa(cell_line_key(name))

    @classmethod
    def from_cellosaurus(cls, path: PathLike, other_names: Iterable[str] = ()) -> "CellLineTable":
        """Build the table from the mirror's Cellosaurus TSV.

        other_names (Iterable[str]): Protein and chemical names; cell line names equal to one of them
            (after `cell_line_key`) are marked confusable.
        """
        names = build_table(read_cellosaurus(path))
        confusable = {k for k in (cell_line_key(n) for n in other_names) if k in names}
        return cls.from_names(names, source=Path(path).name, confusable=confusable)

    def to_disk(self, path: PathLike) -> None:
        """Write the table (`cell_line_file`; byte-identical for the same input)."""
        write_columns(self._columns, path)

    @classmethod
    def from_disk(cls, path: PathLike) -> "CellLineTable":
        """Load a table written by `to_disk`; a missing, corrupt or foreign file raises ArtifactError."""
        return cls(read_columns(path))

    def find(self, text: str, skip: Optional[List[Tuple[int, int]]] = None) -> Iterator[CellLineHit]:
        """Find cell line names in a text, longest match first at each position.

        A name is read as a cell line only if written like one (see `looks_like_cell_line`); a name
        that is also a protein or chemical name (`confusable`) only when followed by "cells".
        skip (Optional[List[Tuple[int, int]]]): Character ranges not to read (e.g. the protein mentions).
        YIELDS (CellLineHit): Non-overlapping hits in text order.
        """
        words = _TOKEN_RE.findall(text.lower())
        firsts = [i for i, w in enumerate(words) if w in self._starts and w not in STOP_FIRST_TOKENS]
        glued = self._glued_to_cells(words)
        if not firsts and not glued:
            return
        tokens = [(m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]
        if len(tokens) != len(words):  # lower() changed a token boundary (rare characters): be exact
            words = [text[a:b].lower() for a, b in tokens]
            firsts = [i for i, w in enumerate(words) if w in self._starts and w not in STOP_FIRST_TOKENS]
            glued = self._glued_to_cells(words)
        skip = skip or []
        next_free = 0
        for i in sorted(set(firsts) | set(glued)):
            if i < next_free:
                continue
            for n in range(min(MAX_TOKENS, len(tokens) - i), 0, -1):
                span = tokens[i : i + n]
                if any(
                    b[0] - a[1] > 1 or (b[0] > a[1] and text[a[1]] not in _GAP_CHARS) for a, b in zip(span, span[1:])
                ):
                    continue
                start, end = span[0][0], span[-1][1]
                key = "".join(words[i : i + n])
                taxa = self._taxa(key)
                if not taxa or any(start < e and s < end for s, e in skip) or _continues_a_word(text, start):
                    continue
                if looks_like_cell_line(text[start:end], text[end : end + 16], key in self.confusable):
                    next_free = i + n
                    yield CellLineHit(start, end, taxa, text[start:end])
                    break
            else:
                if i in glued:
                    start = tokens[i][0]
                    end = start + glued[i]
                    if not any(start < e and s < end for s, e in skip):
                        next_free = i + 1
                        yield CellLineHit(start, end, self._taxa(words[i][: glued[i]]), text[start:end])

    def _glued_to_cells(self, words: List[str]) -> Dict[int, int]:
        """Tokens that are a cell line name glued to "cells"/"cell" (`HEK293Acells`, `THP1cells`: text whose
        formatting was stripped), as token index → length of the name (at least 3 characters)."""
        out: Dict[int, int] = {}
        for i, w in enumerate(words):
            for suffix in _GLUED_SUFFIXES:
                if w.endswith(suffix) and len(w) - len(suffix) >= 3 and w[: len(w) - len(suffix)] in self._index:
                    out[i] = len(w) - len(suffix)
                    break
        return out


def _continues_a_word(text: str, start: int) -> bool:
    """Whether a name found at `start` that starts with a digit ends a hyphenated word (`HA-BCL-2b5 cells`: a
    construct, not the line `2b5`; `GFP-HeLa cells` stays a cell line)."""
    return start >= 2 and text[start].isdigit() and text[start - 1] in _HYPHENS and text[start - 2].isalnum()


def name_starts(keys: Iterable[str]) -> Set[str]:
    """RETURNS (Set[str]): the text tokens a name can start with: `hek293t` → "hek", "hek293" (not digits only)."""
    starts: Set[str] = set()
    for key in keys:
        cuts = [m.start() for m in _LETTER_DIGIT.finditer(key)]
        starts.update(key[:c] for c in cuts if c >= 2 and not key[:c].isdigit())
    return starts


def looks_like_cell_line(found: str, after: str, confusable: bool = False) -> bool:
    """Whether a table name found in a text is written like a cell line.

    One of ALWAYS_CELL_LINES (`CHO`, `HeLa`): yes. A plain lower-case word (`grey`, `ten`): no, whatever
    follows. Followed by "cells"/"cell line" (`Jurkat cells`, `COS cells`): yes, unless under 2 characters.
    Otherwise the name needs 4+ characters, must not be `confusable` (also a protein/chemical name: `HuR`,
    `CCl4`), and must have a digit and a capital (`U2OS`, `MCF7`, `NIH 3T3`) or two capitals in mixed case
    (`HeLa`, `LNCaP`).
    found (str): The text of the name; after (str): the text right after it.
    RETURNS (bool): Whether to read it as a cell line.
    """
    key = cell_line_key(found)
    if key in ALWAYS_CELL_LINES:
        return True
    if found.isalpha() and found.islower():
        return False  # an everyday word, also before "cells" or "line" (`grey line`, `ten cells`, `label cells`)
    if _CELLS_AFTER.match(after):
        return len(key) >= 2
    if confusable or len(key) < 4:
        return False
    has_digit = any(c.isdigit() for c in found)
    n_upper = sum(c.isupper() for c in found)
    return (has_digit and n_upper >= 1) or (n_upper >= 2 and not found.isupper())
