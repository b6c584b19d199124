"""Loader for the BioCreative VI Bio-ID corpus in the offline mirror's format.

Bio-ID is used only as a query set with gold normalisations (and, later, as NER
training text); the linker is never trained on its mentions. Files are gzip (or
plain) UTF-8 TSVs with a header row, see `../shared/data/README.md`:

- `captions.tsv.gz`: split, pmc_id, caption_id, ..., passage_offset, text
- `mentions.tsv.gz`: split, pmc_id, caption_id, ann_id, start, end, mention,
  offset_ok, entity_type, ids, ...  (`start`/`end` are character offsets into
  the caption text; `ids` is `|`-separated; an unnormalised mention carries a
  type prefix only, e.g. `protein:Flag`).

Any `split` value is accepted, so the same code reads the withheld test release.
"""
import csv
import gzip
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple, Union

PathLike = Union[str, Path]

# Bio-ID id prefix -> CURIE prefix used by the reference sets.
KB_PREFIXES: Dict[str, Tuple[str, str]] = {
    "uniprot": ("Uniprot:", "UniProt:"),
    "chebi": ("CHEBI:", "CHEBI:"),
}
MENTION_COLUMNS = ("split", "pmc_id", "caption_id", "start", "end", "mention", "ids")
CAPTION_COLUMNS = ("split", "pmc_id", "caption_id", "text")


class BioIDFormatError(ValueError):
    """A Bio-ID file is missing, unreadable or not in the mirror's format."""


@dataclass(frozen=True)
class Mention:
    """One annotated mention.

    ids (Tuple[str, ...]): The raw `|`-separated ids, e.g. ("Uniprot:P17046",).
    """

    split: str
    pmc_id: str
    caption_id: str
    ann_id: str
    start: int
    end: int
    text: str
    entity_type: str
    ids: Tuple[str, ...]

    @property
    def is_normalized(self) -> bool:
        """RETURNS (bool): Whether at least one id is more than a type prefix."""
        return any(":" in i and i.split(":", 1)[1] and not _is_type_only(i) for i in self.ids)


@dataclass
class Caption:
    """A figure-panel caption with its mentions (sorted by start offset)."""

    split: str
    pmc_id: str
    caption_id: str
    text: str
    mentions: List[Mention] = field(default_factory=list)


@dataclass(frozen=True)
class Query:
    """A mention used as a normalisation query for one KB.

    gold (FrozenSet[str]): CURIEs of the gold entities (secondary ids mapped).
    """

    text: str
    gold: frozenset
    mention: Mention


_TYPE_PREFIXES = {"protein", "gene", "molecule", "chemical", "cell", "tissue", "organism",
                  "subcellular", "protein/gene"}


def _is_type_only(raw_id: str) -> bool:
    return raw_id.split(":", 1)[0].lower() in _TYPE_PREFIXES


def _open_tsv(path: PathLike, required: Sequence[str]) -> Iterator[Dict[str, str]]:
    path = Path(path)
    if not path.exists():
        raise BioIDFormatError(
            f"Bio-ID file not found: {path}. Point the command at the mirror's file "
            f"(e.g. ../shared/data/bioid/{path.name}) or set NSEEN_MIRROR."
        )
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf8", newline="") as f:  # type: ignore[operator]
            reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
            missing = [c for c in required if c not in (reader.fieldnames or [])]
            if missing:
                raise BioIDFormatError(
                    f"{path} lacks the column(s) {missing}; expected a Bio-ID TSV with a "
                    f"header row in the mirror's format (see ../shared/data/README.md)."
                )
            yield from reader
    except (OSError, EOFError, UnicodeDecodeError, csv.Error) as e:
        raise BioIDFormatError(
            f"Could not read {path} ({type(e).__name__}: {e}). The file is probably "
            f"truncated or corrupt: copy it again from the mirror."
        ) from e


def read_mentions(path: PathLike, splits: Optional[Set[str]] = None) -> List[Mention]:
    """Read all mentions from a mentions TSV.

    path (PathLike): The mentions file (`.tsv` or `.tsv.gz`).
    splits (Optional[Set[str]]): Keep only these `split` values (default: all).
    RETURNS (List[Mention]): The mentions in file order.
    """
    mentions = []
    for i, row in enumerate(_open_tsv(path, MENTION_COLUMNS), start=2):
        if splits is not None and row["split"] not in splits:
            continue
        try:
            start, end = int(row["start"]), int(row["end"])
        except (TypeError, ValueError) as e:
            raise BioIDFormatError(f"{path}, line {i}: bad start/end offsets {row}") from e
        ids = tuple(x for x in (row["ids"] or "").split("|") if x)
        mentions.append(
            Mention(split=row["split"], pmc_id=row["pmc_id"], caption_id=row["caption_id"],
                    ann_id=row.get("ann_id") or str(i), start=start, end=end,
                    text=row["mention"] or "", entity_type=row.get("entity_type") or "",
                    ids=ids)
        )
    return mentions


def read_captions(captions_path: PathLike, mentions_path: Optional[PathLike] = None,
                  splits: Optional[Set[str]] = None) -> List[Caption]:
    """Read captions, with their mentions attached if a mentions file is given.

    Mentions whose offsets don't reproduce the mention text in the caption raise
    a BioIDFormatError.
    RETURNS (List[Caption]): Captions in file order; group by `pmc_id` for articles.
    """
    captions: Dict[Tuple[str, str], Caption] = {}
    for row in _open_tsv(captions_path, CAPTION_COLUMNS):
        if splits is not None and row["split"] not in splits:
            continue
        key = (row["pmc_id"], row["caption_id"])
        captions[key] = Caption(row["split"], row["pmc_id"], row["caption_id"], row["text"] or "")
    if mentions_path is not None:
        for m in read_mentions(mentions_path, splits=splits):
            cap = captions.get((m.pmc_id, m.caption_id))
            if cap is None:
                raise BioIDFormatError(
                    f"{mentions_path}: mention {m.ann_id} refers to caption "
                    f"{m.caption_id!r} ({m.pmc_id}) not in {captions_path}."
                )
            if cap.text[m.start:m.end] != m.text:
                raise BioIDFormatError(
                    f"{mentions_path}: offsets {m.start}-{m.end} of mention {m.text!r} "
                    f"don't match caption {m.caption_id!r}; offsets must be characters."
                )
            cap.mentions.append(m)
        for cap in captions.values():
            cap.mentions.sort(key=lambda m: (m.start, m.end))
    return list(captions.values())


DOCUMENT_HALVES = ("all", "even", "odd")


def in_document_half(pmc_id: str, half: str) -> bool:
    """Whether a document (by the digits of its `pmc_id`) belongs to the half "even", "odd" or "all"."""
    if half not in DOCUMENT_HALVES:
        raise ValueError(f"--documents must be one of {DOCUMENT_HALVES}, got {half!r}")
    if half == "all":
        return True
    digits = "".join(c for c in pmc_id if c.isdigit())
    if not digits:
        raise ValueError(f"--documents {half}: the document id {pmc_id!r} has no digits")
    return int(digits) % 2 == (0 if half == "even" else 1)


def caption_texts_by_article(captions_path: PathLike, documents: str = "all",
                             exclude: Iterable[str] = ()) -> Dict[str, List[str]]:
    """RETURNS (Dict[str, List[str]]): the caption texts of each article (pmc_id), in file order, of the documents
    half `documents` (`in_document_half`), the articles in `exclude` left out. Only the text is read (no mentions)."""
    excluded = set(exclude)
    texts: Dict[str, List[str]] = {}
    for row in _open_tsv(captions_path, CAPTION_COLUMNS):
        pmc_id = row["pmc_id"]
        if pmc_id not in excluded and in_document_half(pmc_id, documents):
            texts.setdefault(pmc_id, []).append(row["text"] or "")
    return texts


def group_by_article(captions: Sequence[Caption]) -> Dict[str, List[Caption]]:
    """RETURNS (Dict[str, List[Caption]]): Captions grouped by `pmc_id`."""
    out: Dict[str, List[Caption]] = defaultdict(list)
    for cap in captions:
        out[cap.pmc_id].append(cap)
    return dict(out)


def figure_of(caption_id: str) -> str:
    """The figure of a Bio-ID panel caption: its id up to the first '-' (`Figure_1-E-F`, `Figure_1-AB` →
    `Figure_1`); an id without a panel suffix is its own figure."""
    return caption_id.split("-", 1)[0]


class CaptionContext(NamedTuple):
    """The organism context of one caption: the other texts of its article and of its figure's panels."""

    article_texts: List[str]
    figure_texts: List[str]


def caption_contexts(captions: Sequence[Caption]) -> List[CaptionContext]:
    """RETURNS (List[CaptionContext]): per caption, in order, the texts of the other captions of its article
    and, among those, of the other panels of its figure (`figure_of`)."""
    return panel_contexts([(c.pmc_id, c.caption_id) for c in captions], [c.text for c in captions])


def panel_contexts(keys: Sequence[Tuple[str, Optional[str]]], texts: Sequence[str]) -> List[CaptionContext]:
    """The context of each text given its (article id, caption id); a text without a caption id has no figure.

    RETURNS (List[CaptionContext]): per text, in order, the other texts of its article and of its figure.
    """
    articles: Dict[str, List[int]] = defaultdict(list)
    for i, (article, _) in enumerate(keys):
        articles[article].append(i)
    figures = [None if caption_id is None else figure_of(caption_id) for _, caption_id in keys]
    out = []
    for i, (article, _) in enumerate(keys):
        others = [j for j in articles[article] if j != i]
        out.append(CaptionContext([texts[j] for j in others],
                                  [texts[j] for j in others if figures[i] is not None and figures[j] == figures[i]]))
    return out


def read_secondary_map(path: PathLike) -> Dict[str, str]:
    """Read a `secondary_id\\tprimary_id` TSV (header row) into a dict."""
    return {r["secondary_id"]: r["primary_id"]
            for r in _open_tsv(path, ("secondary_id", "primary_id"))}


def read_equivalences(path: PathLike, kb: str) -> Dict[str, frozenset]:
    """Read the track's equivalence classes, restricted to one KB's ids.

    Only classes with two or more ids of that KB matter (a Uniprot id made
    equivalent to an NCBI gene id changes nothing in a UniProt gold set).
    RETURNS (Dict[str, frozenset]): CURIE -> all CURIEs of its class (same KB).
    """
    path = Path(path)
    bioid_prefix, curie_prefix = KB_PREFIXES[kb]
    try:
        with gzip.open(path, "rt", encoding="utf8") if path.suffix == ".gz" else open(
            path, encoding="utf8"
        ) as f:
            classes = json.load(f)
    except FileNotFoundError as e:
        raise BioIDFormatError(f"Equivalence file not found: {path}.") from e
    except (OSError, EOFError, ValueError) as e:
        raise BioIDFormatError(f"Could not read {path} as gzip JSON ({e}); copy it again.") from e
    out: Dict[str, frozenset] = {}
    for cls in classes:
        ids = frozenset(curie_prefix + i[len(bioid_prefix):] for i in cls
                        if i.startswith(bioid_prefix))
        if len(ids) > 1:
            for i in ids:
                out[i] = out.get(i, frozenset()) | ids
    return out


def gold_ids(mention: Mention, kb: str, secondary: Optional[Dict[str, str]] = None,
             equivalences: Optional[Dict[str, frozenset]] = None) -> frozenset:
    """The gold CURIEs of one KB on a mention (secondary ids mapped to primary).

    RETURNS (frozenset): Empty if the mention has no id of that KB.
    """
    bioid_prefix, curie_prefix = KB_PREFIXES[kb]
    out: Set[str] = set()
    for raw in mention.ids:
        if raw.startswith(bioid_prefix) and len(raw) > len(bioid_prefix):
            curie = curie_prefix + raw[len(bioid_prefix):].strip()
            if secondary:
                curie = secondary.get(curie, curie)
            out.add(curie)
    if equivalences:
        for curie in list(out):
            out |= equivalences.get(curie, frozenset())
        if secondary:
            out = {secondary.get(c, c) for c in out}
    return frozenset(out)


def kb_queries(mentions: Sequence[Mention], kb: str, secondary: Optional[Dict[str, str]] = None,
               equivalences: Optional[Dict[str, frozenset]] = None) -> List[Query]:
    """The mentions carrying at least one id of the KB, as queries.

    kb (str): "uniprot" (`Uniprot:` ids -> `UniProt:` CURIEs) or "chebi".
    RETURNS (List[Query]): One query per mention occurrence, in file order.
    """
    if kb not in KB_PREFIXES:
        raise ValueError(f"Unknown KB {kb!r}; choose one of {sorted(KB_PREFIXES)}.")
    queries = []
    for m in mentions:
        gold = gold_ids(m, kb, secondary, equivalences)
        if gold:
            queries.append(Query(text=m.text, gold=gold, mention=m))
    return queries
