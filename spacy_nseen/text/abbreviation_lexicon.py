"""Abbreviations that many articles define the same way, for mentions whose own article does not define them.

A caption writes `Ub`, `CHX` or `4-OHT` without defining it, because every reader of the field knows it; other
articles do define it (`ubiquitin (Ub)`, `cycloheximide (CHX)`). An `AbbreviationLexicon` is mined from a corpus
of articles (`from_documents`: the Schwartz & Hearst definitions of each article, `text.abbreviations`) and keeps a
short form's long form when enough articles agree on it; `nseen_linker` reads it after the definitions of the
text, its figure and its article (the same idea as the ADAM abbreviation database mined from MEDLINE).

On disk: JSON `{"format": FORMAT, "version": VERSION, "source": ..., "settings": {...}, "documents": n,
"abbreviations": {short: [long form, articles defining it so, articles defining the short form]}}`. Nothing is
unpickled.
"""

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from ..errors import ArtifactError
from .abbreviations import abbreviation_map

FORMAT = "spacy_nseen.abbreviation_lexicon"
VERSION = 1
REBUILD = (
    "Rebuild it with `python -m training.data.build_abbreviations` (a pipeline's copy: load the pipeline and "
    "save it again with nlp.to_disk())"
)


@dataclass
class AbbreviationLexicon:
    """Short form → the long form most articles of a corpus define it by.

    entries (Dict[str, Tuple[str, int, int]]): short form → (long form, articles defining it so, articles
        defining the short form at all).
    """

    entries: Dict[str, Tuple[str, int, int]] = field(default_factory=dict)
    documents: int = 0
    source: str = ""
    settings: Dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_documents(
        cls, documents: Iterable[Sequence[str]], *, min_documents: int = 1, min_share: float = 0.5, source: str = ""
    ) -> "AbbreviationLexicon":
        """Mine the lexicon from documents (each a sequence of texts, e.g. the captions of one article).

        Each document votes once per short form, for the long form it uses most (compared case-insensitively;
        the most frequent spelling is kept). A long form that contains its short form as written and not as the
        start of a longer word (`GFP-LC3 (LC3)`, `PS1N (PS1)`: a construct or variant named after it, not an
        expansion; `Ubiquitin (Ub)` is one) gets no vote. A short form is kept when its
        winning long form has at least `min_documents` votes and at least `min_share` of the documents that
        define the short form.
        """
        votes: Dict[str, Counter] = {}
        spellings: Dict[Tuple[str, str], Counter] = {}
        n_documents = 0
        for texts in documents:
            n_documents += 1
            for short, long_form in abbreviation_map(texts, keep=_is_expansion).items():
                key = long_form.lower()
                votes.setdefault(short, Counter())[key] += 1
                spellings.setdefault((short, key), Counter())[long_form] += 1
        entries: Dict[str, Tuple[str, int, int]] = {}
        for short, counts in votes.items():
            (key, n), total = max(counts.items(), key=lambda kv: (kv[1], kv[0])), sum(counts.values())
            if n >= min_documents and n >= min_share * total:
                spelling = max(spellings[(short, key)].items(), key=lambda kv: (kv[1], kv[0]))[0]
                entries[short] = (spelling, n, total)
        return cls(
            dict(sorted(entries.items())), n_documents, source, {"min_documents": min_documents, "min_share": min_share}
        )

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, short: str) -> bool:
        return short in self.entries

    def get(self, short: str) -> Optional[str]:
        """RETURNS (Optional[str]): the long form of a short form, or None."""
        entry = self.entries.get(short)
        return entry[0] if entry else None

    def long_forms(self) -> Mapping[str, str]:
        """RETURNS (Mapping[str, str]): short form → long form."""
        return {short: entry[0] for short, entry in self.entries.items()}

    def to_dict(self) -> Dict[str, object]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "source": self.source,
            "settings": self.settings,
            "documents": self.documents,
            "abbreviations": {short: list(entry) for short, entry in self.entries.items()},
        }

    def to_disk(self, path: Union[str, Path]) -> None:
        """Write the lexicon as JSON (byte-identical for the same lexicon)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps(self.to_dict(), ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf8"
        )

    @classmethod
    def from_disk(cls, path: Union[str, Path]) -> "AbbreviationLexicon":
        """Read a lexicon written by `to_disk`; a missing, truncated or foreign file raises an ArtifactError."""
        path = Path(path)
        if not path.exists():
            raise ArtifactError(path, "abbreviation lexicon not found", REBUILD)
        try:
            data = json.loads(path.read_text(encoding="utf8"))
        except (OSError, UnicodeDecodeError, ValueError) as e:
            raise ArtifactError(
                path, f"abbreviation lexicon truncated or not JSON ({type(e).__name__}: {e})", REBUILD
            ) from e
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ArtifactError(path, f"not an abbreviation lexicon (format {FORMAT!r})", REBUILD)
        if data.get("version") != VERSION:
            raise ArtifactError(
                path,
                f"abbreviation lexicon version {data.get('version')!r}, this code reads version {VERSION}",
                REBUILD,
            )
        try:
            entries = {
                str(short): (str(entry[0]), int(entry[1]), int(entry[2]))
                for short, entry in data["abbreviations"].items()
            }
            return cls(entries, int(data["documents"]), str(data.get("source", "")), dict(data.get("settings", {})))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise ArtifactError(path, f"not a valid abbreviation lexicon ({type(e).__name__}: {e})", REBUILD) from None


def _is_expansion(short: str, long_form: str) -> bool:
    """Whether `long_form` does not contain `short` as written other than as the start of a longer word: `GFP-LC3`
    and `PS1N` name themselves after `LC3` and `PS1`; `Ubiquitin` expands `Ub`."""
    start = long_form.find(short)
    while start >= 0:
        end = start + len(short)
        if end == len(long_form) or not long_form[end].islower():
            return False
        start = long_form.find(short, start + 1)
    return True


def lexicon_rows(lexicon: AbbreviationLexicon) -> List[Tuple[str, str, int, int]]:
    """RETURNS (List[Tuple[str, str, int, int]]): (short, long, agreeing articles, defining articles), most
    agreed first (for reports)."""
    return sorted(((s, *e) for s, e in lexicon.entries.items()), key=lambda r: (-r[2], r[0]))
