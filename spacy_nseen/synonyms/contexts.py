"""Mention contexts at scale: per mention string, a bounded sample of its contexts and its linking outcome.

`collect_contexts` reads the records `spacy-nseen annotate` writes (JSONL shards, `docs/annotate.md`) and keeps,
for every distinct entity text, how often and in how many documents it occurs, how the pipeline linked it (per
kb_id: count and summed score; unlinked count; the first candidates) and up to `max_contexts` contexts: the
sentence around the mention with the mention's character offsets in it and the record's id and article. The
sample is the `max_contexts` occurrences with the smallest hash of (record id, offset), so it does not depend on
the order the shards are read in, and two collections merge into the one of their union (`merge`).
"""

import bisect
import gzip
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

from ..errors import ArtifactError

FORMAT = "spacy-nseen-mention-contexts"
FORMAT_VERSION = 1
MAX_CONTEXT_CHARS = 300
SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z(\[])")
FIX = "Collect the contexts again with `spacy-nseen collect-contexts` (or pass the annotate output directory)"


@dataclass(frozen=True)
class MentionContext:
    """One occurrence of a mention.

    text (str): the sentence around it (at most MAX_CONTEXT_CHARS characters, cut at spaces).
    start (int): the mention's first character in `text`.
    end (int): the character after the mention in `text`.
    doc_id (str): the record id (caption, sentence, passage).
    article (str): the article the record belongs to (`meta.pmc_id` or `meta.article`; else the record id).
    """

    text: str
    start: int
    end: int
    doc_id: str
    article: str

    @property
    def marked(self) -> str:
        """RETURNS (str): the text with the mention marked as `[[mention]]`."""
        return f"{self.text[: self.start]}[[{self.text[self.start : self.end]}]]{self.text[self.end :]}"


@dataclass
class MentionStats:
    """What the corpus says about one mention string.

    mention (str): the entity text.
    label (str): its most frequent entity label.
    n_mentions (int): occurrences.
    articles (List[str]): the distinct articles it occurs in (sorted).
    links (Dict[str, List[float]]): kb_id -> [count, summed kb_score] of the occurrences linked to it.
    unlinked (int): occurrences left unlinked (NIL or no candidate).
    candidates (List[Tuple[str, str, float]]): the candidates of its first sampled occurrence ([kb_id, name, score]).
    contexts (List[MentionContext]): the sample, smallest key first.
    keys (List[int]): the sample's hash keys (same order).
    """

    mention: str
    label: str = ""
    n_mentions: int = 0
    articles: List[str] = field(default_factory=list)
    links: Dict[str, List[float]] = field(default_factory=dict)
    unlinked: int = 0
    candidates: List[Tuple[str, str, float]] = field(default_factory=list)
    contexts: List[MentionContext] = field(default_factory=list)
    keys: List[int] = field(default_factory=list)
    label_counts: Dict[str, int] = field(default_factory=dict)

    @property
    def n_documents(self) -> int:
        """RETURNS (int): the number of distinct articles."""
        return len(self.articles)

    def best_link(self) -> Optional[Tuple[str, float, float]]:
        """RETURNS (Optional[Tuple[str, float, float]]): (kb_id, share of occurrences, mean score) of the most
        frequent link, None when never linked."""
        if not self.links:
            return None
        kb_id, (count, total) = max(self.links.items(), key=lambda item: (item[1][0], item[0]))
        return kb_id, count / max(self.n_mentions, 1), total / max(count, 1.0)


def context_key(doc_id: str, start: int) -> int:
    """RETURNS (int): the sampling key of an occurrence (a stable 64-bit hash)."""
    digest = hashlib.blake2b(f"{doc_id}\t{start}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def sentence_window(text: str, start: int, end: int, max_chars: int = MAX_CONTEXT_CHARS) -> Tuple[str, int, int]:
    """The sentence holding text[start:end], cut to `max_chars` around the mention at spaces.

    RETURNS (Tuple[str, int, int]): (sentence, start, end) with the offsets in the sentence.
    """
    left = 0
    for match in SENTENCE_END.finditer(text, 0, start):
        left = match.end()
    found = SENTENCE_END.search(text, end)
    right = found.start() if found else len(text)
    room = max(max_chars - (end - start), 0)
    if start - left > room // 2:
        cut = text.find(" ", start - room // 2, start)
        left = cut + 1 if cut >= 0 else start - room // 2
    if right - end > room - (start - left):
        limit = end + max(room - (start - left), 0)
        cut = text.rfind(" ", end, limit)
        right = cut if cut >= 0 else limit
    return text[left:right], start - left, end - left


class ContextCollector:
    """Accumulates `MentionStats` from annotate records.

    max_contexts (int): contexts kept per mention.
    labels (Optional[Sequence[str]]): keep only entities of these labels (None: all).
    """

    def __init__(self, max_contexts: int = 16, labels: Optional[Sequence[str]] = None) -> None:
        if max_contexts < 1:
            raise ValueError(f"max_contexts must be at least 1, got {max_contexts}")
        self.max_contexts = max_contexts
        self.labels = set(labels) if labels is not None else None
        self.stats: Dict[str, MentionStats] = {}
        self.article_sets: Dict[str, Set[str]] = {}
        self.n_records = 0

    def add_record(self, record: Dict[str, Any]) -> None:
        """Add one annotate record (`id`, `text`, `meta`, `entities`)."""
        self.n_records += 1
        text = record.get("text") or ""
        doc_id = str(record.get("id"))
        meta = record.get("meta") or {}
        article = str(meta.get("pmc_id") or meta.get("article") or doc_id)
        for entity in record.get("entities") or []:
            label = entity.get("label") or ""
            if self.labels is not None and label not in self.labels:
                continue
            mention = entity.get("text") or ""
            if not mention.strip():
                continue
            self.add_occurrence(mention, label, text, int(entity["start"]), int(entity["end"]), doc_id, article, entity)

    def add_occurrence(
        self,
        mention: str,
        label: str,
        text: str,
        start: int,
        end: int,
        doc_id: str,
        article: str,
        entity: Dict[str, Any],
    ) -> None:
        """Count one occurrence and keep it in the sample when its key is among the smallest."""
        stats = self.stats.get(mention)
        if stats is None:
            stats = self.stats[mention] = MentionStats(mention)
        stats.n_mentions += 1
        stats.label_counts[label] = stats.label_counts.get(label, 0) + 1
        self.article_sets.setdefault(mention, set()).add(article)
        kb_id = entity.get("kb_id")
        if kb_id:
            link = stats.links.setdefault(str(kb_id), [0.0, 0.0])
            link[0] += 1
            link[1] += float(entity.get("kb_score") or 0.0)
        else:
            stats.unlinked += 1
        key = context_key(doc_id, start)
        if len(stats.keys) >= self.max_contexts and key >= stats.keys[-1]:
            return
        sentence, s_start, s_end = sentence_window(text, start, end)
        position = bisect.bisect_left(stats.keys, key)
        stats.keys.insert(position, key)
        stats.contexts.insert(position, MentionContext(sentence, s_start, s_end, doc_id, article))
        if position == 0 or not stats.candidates:
            stats.candidates = [(str(c[0]), str(c[1]), float(c[2])) for c in entity.get("kb_candidates") or []]
        del stats.keys[self.max_contexts :], stats.contexts[self.max_contexts :]

    def finish(self) -> Dict[str, MentionStats]:
        """RETURNS (Dict[str, MentionStats]): mention -> stats, each with its label set and articles sorted."""
        for stats in self.stats.values():
            stats.label = max(stats.label_counts.items(), key=lambda item: (item[1], item[0]))[0]
            stats.articles = sorted(self.article_sets.get(stats.mention, set()) | set(stats.articles))
        return self.stats


def annotation_files(paths: Iterable[Union[str, Path]]) -> List[Path]:
    """RETURNS (List[Path]): the JSONL shards of annotate output directories (sorted), or the files given."""
    files: List[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            shards = sorted(path.glob("shard-*.jsonl"))
            if not shards:
                raise ArtifactError(path, "holds no shard-*.jsonl files of `spacy-nseen annotate`", FIX)
            files.extend(shards)
        elif path.is_file():
            files.append(path)
        else:
            raise ArtifactError(path, "not found", "Pass annotate output directories or their shard files")
    return files


def read_records(path: Path) -> Iterator[Dict[str, Any]]:
    """Yield the records of one JSONL shard; a line that is not a JSON object is an error naming the line."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf8") as lines:
        for line_no, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as err:
                raise ArtifactError(path, f"line {line_no} is not JSON ({err})", FIX) from None
            if not isinstance(record, dict):
                raise ArtifactError(path, f"line {line_no} is not a JSON object", FIX)
            yield record


def collect_contexts(
    paths: Iterable[Union[str, Path]], max_contexts: int = 16, labels: Optional[Sequence[str]] = None
) -> Dict[str, MentionStats]:
    """Read annotate output (directories of shards, or shard files) into per-mention stats.

    RETURNS (Dict[str, MentionStats]): mention -> stats.
    """
    collector = ContextCollector(max_contexts, labels)
    for path in annotation_files(paths):
        for record in read_records(path):
            collector.add_record(record)
    return collector.finish()


def merge(
    first: Dict[str, MentionStats], second: Dict[str, MentionStats], max_contexts: int
) -> Dict[str, MentionStats]:
    """RETURNS (Dict[str, MentionStats]): the stats of both collections (of disjoint records) as one."""
    out = dict(first)
    for mention, other in second.items():
        mine = out.get(mention)
        if mine is None:
            out[mention] = other
            continue
        pairs = sorted(zip(mine.keys + other.keys, mine.contexts + other.contexts), key=lambda pair: pair[0])
        labels = dict(mine.label_counts)
        for label, count in other.label_counts.items():
            labels[label] = labels.get(label, 0) + count
        links = {kb_id: list(value) for kb_id, value in mine.links.items()}
        for kb_id, (n_links, total) in other.links.items():
            link = links.setdefault(kb_id, [0.0, 0.0])
            link[0] += n_links
            link[1] += total
        out[mention] = MentionStats(
            mention,
            label=max(labels.items(), key=lambda item: (item[1], item[0]))[0],
            n_mentions=mine.n_mentions + other.n_mentions,
            articles=sorted(set(mine.articles) | set(other.articles)),
            links=links,
            unlinked=mine.unlinked + other.unlinked,
            candidates=mine.candidates
            if mine.keys and (not other.keys or mine.keys[0] <= other.keys[0])
            else other.candidates,
            contexts=[context for _, context in pairs[:max_contexts]],
            keys=[key for key, _ in pairs[:max_contexts]],
            label_counts=labels,
        )
    return out


def stats_to_json(stats: MentionStats) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): one line of the contexts file."""
    return {
        "mention": stats.mention,
        "label": stats.label,
        "labels": stats.label_counts,
        "n_mentions": stats.n_mentions,
        "articles": stats.articles,
        "links": stats.links,
        "unlinked": stats.unlinked,
        "candidates": [list(c) for c in stats.candidates],
        "contexts": [[c.text, c.start, c.end, c.doc_id, c.article] for c in stats.contexts],
        "keys": [str(key) for key in stats.keys],
    }


def stats_from_json(data: Dict[str, Any]) -> MentionStats:
    """RETURNS (MentionStats): a line of the contexts file read back."""
    return MentionStats(
        mention=str(data["mention"]),
        label=str(data.get("label", "")),
        n_mentions=int(data["n_mentions"]),
        articles=[str(a) for a in data.get("articles", [])],
        links={str(k): [float(v[0]), float(v[1])] for k, v in data.get("links", {}).items()},
        unlinked=int(data.get("unlinked", 0)),
        candidates=[(str(c[0]), str(c[1]), float(c[2])) for c in data.get("candidates", [])],
        contexts=[MentionContext(str(c[0]), int(c[1]), int(c[2]), str(c[3]), str(c[4])) for c in data["contexts"]],
        keys=[int(key) for key in data.get("keys", [])],
        label_counts={str(k): int(v) for k, v in data.get("labels", {}).items()},
    )


def write_contexts(path: Union[str, Path], stats: Dict[str, MentionStats], metadata: Dict[str, Any]) -> int:
    """Write the stats as gzipped JSON lines (a header line with the format and `metadata` first).

    RETURNS (int): the number of mentions written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    header = {"format": FORMAT, "version": FORMAT_VERSION, **metadata}
    with gzip.open(path, "wt", encoding="utf8") as out:
        out.write(json.dumps(header, ensure_ascii=False) + "\n")
        for mention in sorted(stats):
            out.write(json.dumps(stats_to_json(stats[mention]), ensure_ascii=False) + "\n")
    return len(stats)


def read_contexts(path: Union[str, Path]) -> Tuple[Dict[str, MentionStats], Dict[str, Any]]:
    """Read a contexts file written by `write_contexts`.

    RETURNS (Tuple[Dict[str, MentionStats], Dict[str, Any]]): the stats and the header's metadata.
    """
    path = Path(path)
    if not path.is_file():
        raise ArtifactError(path, "contexts file not found", FIX)
    stats: Dict[str, MentionStats] = {}
    try:
        with gzip.open(path, "rt", encoding="utf8") as lines:
            header = json.loads(next(lines, "{}"))
            if not isinstance(header, dict) or header.get("format") != FORMAT:
                raise ArtifactError(path, "is not a mention contexts file", FIX)
            if header.get("version") != FORMAT_VERSION:
                raise ArtifactError(path, f"has format version {header.get('version')}, not {FORMAT_VERSION}", FIX)
            for line in lines:
                item = stats_from_json(json.loads(line))
                stats[item.mention] = item
    except (OSError, EOFError, UnicodeDecodeError, ValueError, KeyError, TypeError, IndexError) as err:
        raise ArtifactError(path, f"cannot be read ({type(err).__name__}: {err})", FIX) from None
    return stats, header
