"""A character vocabulary that accepts any Unicode input.

Id 0 is padding and id 1 stands for every character not in the vocabulary, so encoding never
fails. Text is NFC-normalised first, so a letter with a combining accent and its precomposed form
share ids.
"""
import json
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Sequence, Tuple, Union

import numpy

from ..about import ARTIFACT_FORMAT_VERSION
from ..errors import ArtifactError

PAD_ID = 0
UNK_ID = 1
# Characters always in the vocabulary, whatever the training names: ASCII and the Greek alphabet.
BASE_CHARS = "".join(chr(c) for c in range(32, 127)) + "".join(
    chr(c) for c in range(0x391, 0x3CA) if unicodedata.category(chr(c)).startswith("L")
)


class CharVocab:
    """Maps characters to integer ids.

    chars (Sequence[str]): the known characters; they get ids 2, 3, ... in this order.
    capacity (int): the number of ids the embedding table has (padding and unknown included).
    """

    def __init__(self, chars: Sequence[str], capacity: int) -> None:
        if capacity < 2:
            raise ValueError(f"capacity must be at least 2, got {capacity}")
        kept: List[str] = []
        seen = set()
        for char in chars:
            if len(char) != 1:
                raise ValueError(f"not a single character: {char!r}")
            if char not in seen and len(kept) + 2 < capacity:
                seen.add(char)
                kept.append(char)
        self.chars = kept
        self.capacity = capacity
        self._ids: Dict[str, int] = {char: i + 2 for i, char in enumerate(kept)}

    @classmethod
    def from_texts(cls, texts: Iterable[str], capacity: int) -> "CharVocab":
        """Build a vocabulary: the base characters, then the most frequent others that fit.

        texts (Iterable[str]): the strings whose characters to count.
        capacity (int): the size of the embedding table.
        RETURNS (CharVocab): the vocabulary.
        """
        counts: Counter = Counter()
        for text in texts:
            counts.update(unicodedata.normalize("NFC", text))
        extra = [c for c, _ in sorted(counts.items(), key=lambda x: (-x[1], x[0])) if c not in BASE_CHARS]
        return cls(list(BASE_CHARS) + extra, capacity)

    def __len__(self) -> int:
        return self.capacity

    def __contains__(self, char: str) -> bool:
        return char in self._ids

    def encode(self, text: str, max_length: int) -> List[int]:
        """Encode one string, NFC-normalised and cut to `max_length` characters.

        An empty string encodes as one unknown id, so every string gets a vector.
        """
        text = unicodedata.normalize("NFC", text)[:max_length]
        if not text:
            return [UNK_ID]
        ids = self._ids
        return [ids.get(char, UNK_ID) for char in text]

    def batch(self, texts: Sequence[str], max_length: int) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """Encode strings into a padded id matrix.

        RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): int64 ids of shape (n, longest) and int64 lengths.
        """
        encoded = [self.encode(text, max_length) for text in texts]
        lengths = numpy.asarray([len(e) for e in encoded], dtype=numpy.int64)
        ids = numpy.full((len(encoded), int(lengths.max()) if len(encoded) else 1), PAD_ID, dtype=numpy.int64)
        for row, e in enumerate(encoded):
            ids[row, : len(e)] = e
        return ids, lengths

    def to_dict(self) -> Dict:
        return {"format_version": ARTIFACT_FORMAT_VERSION, "capacity": self.capacity, "chars": "".join(self.chars)}

    @classmethod
    def from_dict(cls, data: Dict) -> "CharVocab":
        return cls(list(data["chars"]), int(data["capacity"]))

    def to_disk(self, path: Union[str, Path]) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), ensure_ascii=False), encoding="utf8")

    @classmethod
    def from_disk(cls, path: Union[str, Path]) -> "CharVocab":
        """Load a vocabulary file, with a clear error if it is missing, corrupt or from another version."""
        path = Path(path)
        fix = "Re-train or re-save the linker, or point to the right directory."
        if not path.exists():
            raise ArtifactError(path, "character vocabulary file not found", fix)
        try:
            data = json.loads(path.read_text(encoding="utf8"))
            version = data["format_version"]
            vocab = cls.from_dict(data)
        except (ValueError, KeyError, TypeError) as err:
            raise ArtifactError(path, f"not a valid character vocabulary ({err})", fix) from None
        if version != ARTIFACT_FORMAT_VERSION:
            raise ArtifactError(
                path, f"written by artifact format {version}, this spacy_nseen reads {ARTIFACT_FORMAT_VERSION}", fix
            )
        return vocab
