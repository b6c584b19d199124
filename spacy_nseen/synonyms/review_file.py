"""The curator's review file: proposed synonyms, one per row, with their evidence and a decision column.

`discover-synonyms` writes it; a curator fills `decision` (`accept` or `reject`; empty = not reviewed yet) in a
spreadsheet or editor; `build-kb --extra-names` and `KnowledgeBaseLinker.add_names` read the accepted rows as
names of kind `discovered`. UTF-8, tab-separated, gzipped when the name ends in `.gz`. Lines starting with `#` before
the header carry `key=value` metadata (format version, corpus, pipeline, knowledge base). Tabs and line breaks in
contexts are written as spaces; a context marks its mention as `[[mention]]`; several contexts are joined by
` ‖ `, their document ids (same order) by `,`.
"""

import gzip
import io
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ..errors import ArtifactError

FORMAT = "spacy-nseen-synonym-review"
FORMAT_VERSION = 1
COLUMNS = (
    "decision",
    "mention",
    "kb",
    "kb_id",
    "entity_name",
    "score",
    "string_score",
    "context_score",
    "n_mentions",
    "n_documents",
    "examples",
    "documents",
)
DECISIONS = ("", "accept", "reject")
DISCOVERED_KIND = "discovered"
CONTEXT_SEPARATOR = " ‖ "
FIX = (
    "Keep the header row and the columns as discover-synonyms wrote them; write 'accept' or 'reject' (or nothing) "
    "in the decision column; or write a new file with `spacy-nseen discover-synonyms`"
)


@dataclass
class ReviewRow:
    """One proposed synonym.

    mention (str): the string seen in the corpus.
    kb (str): the knowledge base ("uniprot", "chebi", ...).
    kb_id (str): the proposed entity.
    entity_name (str): a readable name of that entity, for the curator.
    score (float): the calibrated probability that `mention` names `kb_id`.
    string_score (float): the string-only score (the NSEEN encoder / linker), NaN when not computed.
    context_score (float): the context model's score, NaN when not computed.
    n_mentions (int): occurrences of `mention` in the corpus.
    n_documents (int): documents it occurs in.
    examples (List[str]): a few contexts, the mention marked as `[[mention]]`.
    documents (List[str]): the document id of each example.
    decision (str): "", "accept" or "reject".
    """

    mention: str
    kb: str
    kb_id: str
    entity_name: str
    score: float
    string_score: float = math.nan
    context_score: float = math.nan
    n_mentions: int = 0
    n_documents: int = 0
    examples: List[str] = field(default_factory=list)
    documents: List[str] = field(default_factory=list)
    decision: str = ""

    @property
    def accepted(self) -> bool:
        """RETURNS (bool): whether the curator accepted the row."""
        return self.decision == "accept"


@dataclass
class ReviewFile:
    """A review file's metadata and rows."""

    rows: List[ReviewRow]
    metadata: Dict[str, str] = field(default_factory=dict)

    def accepted(self, kb: Optional[str] = None) -> List[ReviewRow]:
        """RETURNS (List[ReviewRow]): the accepted rows (of one knowledge base when `kb` is given)."""
        return [row for row in self.rows if row.accepted and (kb is None or row.kb == kb)]

    def accepted_names(self, kb: Optional[str] = None) -> List[Tuple[str, str, str]]:
        """RETURNS (List[Tuple[str, str, str]]): (kb_id, name, "discovered") of each accepted row, once each."""
        seen = dict.fromkeys((row.kb_id, row.mention, DISCOVERED_KIND) for row in self.accepted(kb))
        return list(seen)


def clean_cell(text: str) -> str:
    """RETURNS (str): `text` with tabs and line breaks as spaces, so it fits one TSV cell."""
    return " ".join(text.replace("\t", " ").splitlines()).strip()


def format_score(value: float) -> str:
    """RETURNS (str): a score with 4 decimals, or empty when it is NaN."""
    return "" if math.isnan(value) else f"{value:.4f}"


def write_review_file(path: Union[str, Path], rows: Iterable[ReviewRow], metadata: Dict[str, str]) -> int:
    """Write `rows` (in the given order) with `metadata` as `# key=value` lines.

    RETURNS (int): the number of rows written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"# format={FORMAT}", f"# version={FORMAT_VERSION}"]
    lines += [
        f"# {clean_cell(key)}={clean_cell(str(value))}"
        for key, value in metadata.items()
        if key not in ("format", "version")
    ]
    lines.append("\t".join(COLUMNS))
    n_rows = 0
    for row in rows:
        if row.decision not in DECISIONS:
            raise ValueError(f"decision must be one of {DECISIONS}, not {row.decision!r}")
        cells = [
            row.decision,
            clean_cell(row.mention),
            row.kb,
            row.kb_id,
            clean_cell(row.entity_name),
            format_score(row.score),
            format_score(row.string_score),
            format_score(row.context_score),
            str(row.n_mentions),
            str(row.n_documents),
            CONTEXT_SEPARATOR.join(clean_cell(example) for example in row.examples),
            ",".join(clean_cell(doc).replace(",", " ") for doc in row.documents),
        ]
        lines.append("\t".join(cells))
        n_rows += 1
    data = ("\n".join(lines) + "\n").encode("utf8")
    path.write_bytes(gzip.compress(data) if path.suffix == ".gz" else data)
    return n_rows


def parse_score(path: Path, line_no: int, column: str, text: str) -> float:
    """RETURNS (float): a score cell (NaN when empty); an error naming the file and line when it is not a number."""
    if not text.strip():
        return math.nan
    try:
        return float(text)
    except ValueError:
        raise ArtifactError(path, f"line {line_no}: {column} {text!r} is not a number", FIX) from None


def parse_count(path: Path, line_no: int, column: str, text: str) -> int:
    """RETURNS (int): a count cell (0 when empty)."""
    if not text.strip():
        return 0
    try:
        return int(text)
    except ValueError:
        raise ArtifactError(path, f"line {line_no}: {column} {text!r} is not a whole number", FIX) from None


def parse_row(path: Path, line_no: int, cells: Sequence[str]) -> ReviewRow:
    """RETURNS (ReviewRow): one data line; errors name the file, the line and what is wrong."""
    if len(cells) < COLUMNS.index("kb_id") + 1:
        raise ArtifactError(path, f"line {line_no} has {len(cells)} columns, at least 4 needed", FIX)
    cells = list(cells) + [""] * (len(COLUMNS) - len(cells))
    values = dict(zip(COLUMNS, cells))
    decision = values["decision"].strip().lower()
    if decision not in DECISIONS:
        raise ArtifactError(path, f"line {line_no}: decision {values['decision']!r} is not 'accept' or 'reject'", FIX)
    mention, kb, kb_id = values["mention"].strip(), values["kb"].strip(), values["kb_id"].strip()
    if not mention or not kb or not kb_id:
        raise ArtifactError(path, f"line {line_no}: mention, kb and kb_id must not be empty", FIX)
    examples = [text for text in values["examples"].split(CONTEXT_SEPARATOR.strip()) if text.strip()]
    return ReviewRow(
        mention=mention,
        kb=kb,
        kb_id=kb_id,
        entity_name=values["entity_name"].strip(),
        score=parse_score(path, line_no, "score", values["score"]),
        string_score=parse_score(path, line_no, "string_score", values["string_score"]),
        context_score=parse_score(path, line_no, "context_score", values["context_score"]),
        n_mentions=parse_count(path, line_no, "n_mentions", values["n_mentions"]),
        n_documents=parse_count(path, line_no, "n_documents", values["n_documents"]),
        examples=[text.strip() for text in examples],
        documents=[doc for doc in values["documents"].split(",") if doc],
        decision=decision,
    )


def read_review_file(path: Union[str, Path]) -> ReviewFile:
    """Read a review file (as written by `write_review_file`, possibly edited by a curator).

    RETURNS (ReviewFile): its metadata and rows.
    Raises ArtifactError naming the file (and line) when it is missing, unreadable, from another format version or
    malformed.
    """
    path = Path(path)
    if not path.is_file():
        raise ArtifactError(path, "review file not found", FIX)
    try:
        raw = path.read_bytes()
        text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf8")
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as err:
        raise ArtifactError(path, f"cannot be read ({err})", FIX) from None
    metadata: Dict[str, str] = {}
    rows: List[ReviewRow] = []
    header_seen = False
    for line_no, line in enumerate(io.StringIO(text.lstrip("\ufeff")), start=1):
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        if not header_seen and line.startswith("#"):
            key, _, value = line[1:].strip().partition("=")
            metadata[key.strip()] = value.strip()
            continue
        cells = line.split("\t")
        if not header_seen:
            if [cell.strip().lower() for cell in cells[: len(COLUMNS)]] != list(COLUMNS[: len(cells)]) or len(
                cells
            ) < 4:
                raise ArtifactError(path, f"line {line_no} is not the header row ({' '.join(COLUMNS)})", FIX)
            header_seen = True
            continue
        rows.append(parse_row(path, line_no, cells))
    if metadata.get("format", FORMAT) != FORMAT:
        raise ArtifactError(path, f"is a {metadata['format']!r} file, not a synonym review file", FIX)
    version = metadata.get("version", str(FORMAT_VERSION))
    if version != str(FORMAT_VERSION):
        raise ArtifactError(
            path,
            f"has format version {version}; this spacy_nseen reads version {FORMAT_VERSION}",
            "Write it again with this version's `spacy-nseen discover-synonyms`",
        )
    if not header_seen:
        raise ArtifactError(path, "has no header row", FIX)
    return ReviewFile(rows, metadata)
