"""Words of contexts for SynonymNet: a tokenizer, a word vocabulary, and a context as two id sequences.

A context is read as words (`\\w+` runs and single other characters, lower-cased, digits as 0); the mention is one
placeholder word. `WordVocab.context_ids` gives the forward sequence (up to `window` words before the mention, then
the placeholder) and the backward one (up to `window` words after it, last word first, then the placeholder).
"""

import json
import re
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Sequence, Tuple, Union

import numpy

from ..errors import ArtifactError

PAD_ID = 0
UNK_ID = 1
MENTION_ID = 2
RESERVED = ("<pad>", "<unk>", "<mention>")
TOKEN = re.compile(r"\w+|[^\w\s]")
DIGIT = re.compile(r"\d")


def words(text: str) -> List[str]:
    """RETURNS (List[str]): the normalised words of a text."""
    return [DIGIT.sub("0", token.lower()) for token in TOKEN.findall(text)]


class WordVocab:
    """Maps words to ids (0 padding, 1 unknown, 2 the mention placeholder).

    words (Sequence[str]): the known words; they get ids 3, 4, ... in this order.
    """

    def __init__(self, known: Sequence[str]) -> None:
        self.words = list(known)
        self.index: Dict[str, int] = {word: i + len(RESERVED) for i, word in enumerate(self.words)}

    @property
    def size(self) -> int:
        """RETURNS (int): the rows of an embedding table for this vocabulary."""
        return len(self.words) + len(RESERVED)

    @classmethod
    def from_texts(cls, texts: Iterable[str], max_words: int = 20000, min_count: int = 2) -> "WordVocab":
        """RETURNS (WordVocab): the `max_words` most frequent words seen at least `min_count` times."""
        counts: Counter = Counter()
        for text in texts:
            counts.update(words(text))
        ranked = sorted((w for w, c in counts.items() if c >= min_count), key=lambda w: (-counts[w], w))
        return cls(ranked[:max_words])

    def ids(self, tokens: Sequence[str]) -> List[int]:
        """RETURNS (List[int]): the ids of normalised words."""
        return [self.index.get(token, UNK_ID) for token in tokens]

    def context_ids(self, text: str, start: int, end: int, window: int) -> Tuple[List[int], List[int]]:
        """RETURNS (Tuple[List[int], List[int]]): (forward ids ending with the placeholder, backward ids ending
        with the placeholder) of a context whose mention is text[start:end]."""
        left = self.ids(words(text[:start]))[-window:] if window > 0 else []
        right = self.ids(words(text[end:]))[:window] if window > 0 else []
        return left + [MENTION_ID], right[::-1] + [MENTION_ID]

    def to_json(self) -> Dict[str, object]:
        """RETURNS (Dict[str, object]): the vocabulary as JSON."""
        return {"words": self.words}

    @classmethod
    def from_json(cls, data: Dict[str, object], path: Union[str, Path] = "<json>") -> "WordVocab":
        """RETURNS (WordVocab): a vocabulary read back; an ArtifactError naming `path` when malformed."""
        known = data.get("words")
        if not isinstance(known, list) or not all(isinstance(word, str) for word in known):
            raise ArtifactError(path, "has no list of words", "Train the synonym model again")
        return cls(known)


def pad(sequences: Sequence[Sequence[int]]) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): int64 (n, longest) ids padded with 0, and int64 lengths."""
    lengths = numpy.array([len(seq) for seq in sequences], dtype=numpy.int64)
    out = numpy.zeros((len(sequences), int(lengths.max()) if len(sequences) else 0), dtype=numpy.int64)
    for i, seq in enumerate(sequences):
        out[i, : len(seq)] = seq
    return out, lengths


def save_json(path: Path, data: object) -> None:
    """Write JSON (UTF-8)."""
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf8")
