"""A character vocabulary that accepts any Unicode input.

Id 0 is padding and id 1 stands for every character not in the vocabulary, so encoding never
fails. Text is normalised first, by the vocabulary's `normalization`:
- "nfc": Unicode NFC only, so a letter with a combining accent and its precomposed form share ids (the
  paper's encoder reads the name as written; vocabularies saved before the setting existed read as "nfc");
- "fold": case folded, NFKC, dashes unified and Greek letters spelled out (`text.normalization.folded_text`),
  so `Drp1`, `DRP1` and `drp1`, or `TGFβ` and `TGF-beta`, are the same or nearly the same input
  (results/encoder_experiments/README.md).
"""

import json
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Sequence, Tuple, Union

import numpy

from ..about import ARTIFACT_FORMAT_VERSION
from ..errors import ArtifactError
from ..text.normalization import folded_text

PAD_ID = 0
UNK_ID = 1
# Characters always in the vocabulary, whatever the training names: ASCII and the Greek alphabet.
BASE_CHARS = "".join(chr(c) for c in range(32, 127)) + "".join(
    chr(c) for c in range(0x391, 0x3CA) if unicodedata.category(chr(c)).startswith("L")
)
NORMALIZATIONS = ("nfc", "fold")
# what a new vocabulary (a new encoder) reads unless told otherwise: the measured winner on protein names
DEFAULT_NORMALIZATION = "fold"


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


_NORMALIZERS: Dict[str, Callable[[str], str]] = {"nfc": _nfc, "fold": folded_text}


def normalizer(normalization: str) -> Callable[[str], str]:
    """RETURNS (Callable[[str], str]): the function of a normalisation name; a ValueError for an unknown one."""
    if normalization not in _NORMALIZERS:
        raise ValueError(f"normalization must be one of {NORMALIZATIONS}, got {normalization!r}")
    return _NORMALIZERS[normalization]


class CharVocab:
    """Maps characters to integer ids.

    chars (Sequence[str]): the known characters; they get ids 2, 3, ... in this order.
    capacity (int): the number of ids the embedding table has (padding and unknown included).
    normalization (str): how a text becomes the characters encoded: "nfc" or "fold" (module docstring; "nfc"
        here, as a saved vocabulary without the setting reads, while `from_texts` builds new ones with the default).
    """

    def __init__(self, chars: Sequence[str], capacity: int, normalization: str = "nfc") -> None:
        if capacity < 2:
            raise ValueError(f"capacity must be at least 2, got {capacity}")
        self._normalize = normalizer(normalization)
        self.normalization = normalization
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
    def from_texts(cls, texts: Iterable[str], capacity: int, normalization: str = DEFAULT_NORMALIZATION) -> "CharVocab":
        """Build a vocabulary: the base characters, then the most frequent others (after normalisation) that fit.

        texts (Iterable[str]): the strings whose characters to count.
        capacity (int): the size of the embedding table.
        normalization (str): "nfc" or "fold" (module docstring).
        RETURNS (CharVocab): the vocabulary.
        """
        normalize = normalizer(normalization)
        counts: Counter = Counter()
        for text in texts:
            counts.update(normalize(text))
        extra = [c for c, _ in sorted(counts.items(), key=lambda x: (-x[1], x[0])) if c not in BASE_CHARS]
        return cls(list(BASE_CHARS) + extra, capacity, normalization)

    def normalize(self, text: str) -> str:
        """RETURNS (str): the characters of `text` this vocabulary encodes (before the length cut)."""
        return self._normalize(text)

    def __len__(self) -> int:
        return self.capacity

    def __contains__(self, char: str) -> bool:
        return char in self._ids

    def encode(self, text: str, max_length: int) -> List[int]:
        """Encode one string, normalised and cut to `max_length` characters.

        An empty string encodes as one unknown id, so every string gets a vector.
        """
        text = self._normalize(text)[:max_length]
        if not text:
            return [UNK_ID]
        ids = self._ids
        return [ids.get(char, UNK_ID) for char in text]

    def input_key(self, text: str, max_length: int) -> str:
        """RETURNS (str): what the encoder reads of `text` (its ids of `encode`, one character each): two
        strings with the same key get the same vector."""
        return "".join(map(chr, self.encode(text, max_length)))

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
        return {
            "format_version": ARTIFACT_FORMAT_VERSION,
            "capacity": self.capacity,
            "chars": "".join(self.chars),
            "normalization": self.normalization,
        }

    @classmethod
    def from_dict(cls, data: Dict) -> "CharVocab":
        # written before the setting existed: the encoder was trained on NFC text
        return cls(list(data["chars"]), int(data["capacity"]), str(data.get("normalization", "nfc")))

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
