"""`nseen_gazetteer`: reference names the statistical NER missed become entities of one label.

The component runs after the `ner` (and any ruler) and never changes an entity it finds: it adds a span only where
no entity overlaps it. A name matches where the doc's tokens equal the name's tokens under the same tokenizer
(as written, or lower-cased with `lowercase`); the longest name wins at each position, left to right. With
`caption_dashes`, a name with an ASCII hyphen between word characters is also listed as the captions write it,
with U+2010 (`spellings`: `Y-27632` finds `Y‐27632`). The names are data, chosen where they are built
(`training.ner.chemical_gazetteer`: ChEBI names that the training captions do not mostly leave unlabelled).

A name is looked up by a hash of its tokens' ORTH ids (spaCy's stable 64-bit string hashes, `Token.orth`), rolled
over the tokens; for a doc, every token n-gram is hashed at once with numpy and tested against the sorted hashes.
That keeps 240,000 ChEBI names in about 2 MB (a Python set of them takes 40 MB) at a fraction of a millisecond per
caption.

Saved as `gazetteer.json` (settings, number of names), `names.txt.gz` (one tokenized name per line, gzip: `zcat`
reads it) and `hashes.npz` (the sorted hashes; pickle-free): a missing, truncated or foreign file raises an
`ArtifactError` that names it. The names are kept compressed in memory, as saved, so loading neither compresses nor
decompresses them: the file's gzip trailer must match the size and CRC-32 that `gazetteer.json` records, and the
names are decompressed (and checked whole) only when read (`keys`, adding names). Format 1 saves (`names.txt`,
plain text) still load.
"""

import gzip
import json
import re
import struct
import zlib
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

import numpy
import srsly
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.strings import get_string_id
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.vocab import Vocab
from wasabi import msg

from ..errors import ArtifactError, FileProblemError
from ..retrieval.array_io import load_npz, save_npz

FORMAT_VERSION = 2
SETTINGS_FILE = "gazetteer.json"
NAMES_FILE = "names.txt.gz"
PLAIN_NAMES_FILE = "names.txt"  # format 1: the names as plain text
HASHES_FILE = "hashes.npz"
_SEPARATOR = " "  # between the tokens of a key (tokens never contain a space)
_MULTIPLIER = numpy.uint64(1099511628211)  # the rolling hash's base (odd; uint64 arithmetic wraps mod 2**64)
_WORD_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")
CAPTION_DASH = "\u2010"  # how the Bio-ID captions write a name's hyphen (`Y‐27632`, `anti‐LC3`)
# The look-up's filter: one bit per value of a hash's low bits (2**23 bits, 1 MB), set for the listed names, so
# that most of a doc's token runs (no name) are ruled out without a binary search of the sorted hashes.
FILTER_BITS = 23
_FILTER_MASK = numpy.uint64((1 << FILTER_BITS) - 1)


def spellings(name: str) -> List[str]:
    """RETURNS (List[str]): the name as written and, if it has an ASCII hyphen between word characters, the same
    name with those hyphens written as U+2010. The captions write ChEBI's `Y-27632` as `Y‐27632`, and the caption
    tokenizer splits the Unicode dash but not the hyphen, so the two spellings have different tokens."""
    dashed = _WORD_HYPHEN.sub(CAPTION_DASH, name)
    return [name] if dashed == name else [name, dashed]


def join_tokens(tokens: Iterable[str]) -> str:
    """RETURNS (str): the key of a name or a doc's token run: its tokens' texts joined by a space."""
    return _SEPARATOR.join(tokens)


def roll_hashes(orths: numpy.ndarray, n_tokens: int) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): uint64, the rolled hash of each run of `n_tokens` consecutive ORTH ids."""
    orths = numpy.asarray(orths, dtype=numpy.uint64)
    count = len(orths) - n_tokens + 1
    if count <= 0:
        return numpy.zeros(0, dtype=numpy.uint64)
    hashes = numpy.zeros(count, dtype=numpy.uint64)
    with numpy.errstate(over="ignore"):
        for i in range(n_tokens):
            hashes = hashes * _MULTIPLIER + orths[i : i + count]
    return hashes


RolledHashes = Dict[Tuple[str, int], numpy.ndarray]  # (token attribute, n_tokens) → roll_hashes of a doc's ids


def doc_hashes(doc: Doc, attr: str, n_tokens: int, rolled: RolledHashes) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): `roll_hashes` of the doc's `attr` ids (ORTH or LOWER) over `n_tokens`, computed
    once per doc: kept in `rolled` for the next gazetteer that looks for names of that length in the same doc."""
    if (attr, 1) not in rolled:
        rolled[(attr, 1)] = doc.to_array(attr).astype(numpy.uint64)
    if (attr, n_tokens) not in rolled:
        rolled[(attr, n_tokens)] = roll_hashes(rolled[(attr, 1)], n_tokens)
    return rolled[(attr, n_tokens)]


def key_hash(tokens: Sequence[str]) -> int:
    """RETURNS (int): the rolled hash of a name's tokens (what `roll_hashes` gives for the same tokens in a doc)."""
    return int(roll_hashes(numpy.asarray([get_string_id(t) for t in tokens], dtype=numpy.uint64), len(tokens))[0])


class Gazetteer(Pipe):
    """Adds an entity for each listed name that no entity overlaps.

    label (str): the label of the added entities (e.g. "CHEMICAL").
    max_tokens (int): the longest name, in tokens, that is listed and looked for.
    lowercase (bool): match the tokens' lower-case forms (`Token.lower`; `vps30` finds `VPS30`), not as written.
    caption_dashes (bool): list each name in its `spellings`, hyphens also as U+2010. The component after the NER
        sets it (`configs/ner.cfg`); the name features do not: a learned feature on both spellings made the NER
        lean on the lists for dashed names (`results/ner/experiments/README.md`).
    """

    def __init__(
        self,
        nlp: Language,
        name: str = "nseen_gazetteer",
        *,
        label: str,
        max_tokens: int,
        lowercase: bool = False,
        caption_dashes: bool = False,
    ) -> None:
        if not label:
            raise ValueError("nseen_gazetteer needs a label")
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be at least 1, got {max_tokens}")
        self.nlp = nlp
        self.name = name
        self.label = label
        self.max_tokens = max_tokens
        self.lowercase = lowercase
        self.caption_dashes = caption_dashes
        # the keys, one per line, as gzip bytes (`pack_text`): only keys() and adding names read them (240,000
        # names: 5 MB as one string, 1.5 MB compressed; as a list of strings they took 15 MB)
        self._packed_text = pack_text("")
        self._packed_from: Union[str, Path] = "<memory>"  # where the packed text was read, for errors
        self._hashes = numpy.zeros(0, dtype=numpy.uint64)
        self._filter: Optional[numpy.ndarray] = None  # built on the first look-up (`_name_filter`)
        self._lengths: List[int] = []

    def __len__(self) -> int:
        return len(self._hashes)

    @property
    def _text(self) -> str:
        try:
            return gzip.decompress(self._packed_text).decode("utf8")
        except (OSError, EOFError, zlib.error, UnicodeDecodeError) as e:
            raise ArtifactError(self._packed_from, f"the names do not decompress ({e})", _FIX) from e

    def keys(self) -> List[str]:
        """RETURNS (List[str]): the listed names' keys (their tokens joined by a space), sorted."""
        return self._text.split("\n")[:-1]

    def name_tokenizer(self) -> Callable[[str], Doc]:
        """RETURNS: the pipeline's tokenizer rules on a vocab of their own, so that tokenizing 240,000 names does
        not add their strings and lexemes to the pipeline's vocab (which is saved and loaded with it: 65 MB and
        0.3 s of load time); the pipeline's own tokenizer if it cannot be copied so."""
        tokenizer = self.nlp.tokenizer
        if isinstance(tokenizer, Tokenizer):
            copy = Tokenizer(Vocab())
            copy.from_bytes(tokenizer.to_bytes())
            return copy
        return self.nlp.make_doc

    def key_of(self, text: str, tokenize: Optional[Callable[[str], Doc]] = None) -> Optional[str]:
        """RETURNS (Optional[str]): a name's key (its tokens under the pipeline's tokenizer), or None if it has
        whitespace tokens or more than `max_tokens` tokens."""
        tokens = [t.text for t in (tokenize or self.name_tokenizer())(text.strip())]
        if not tokens or len(tokens) > self.max_tokens or any(not t.strip() for t in tokens):
            return None
        return self.key_of_tokens(tokens)

    def key_of_tokens(self, tokens: Iterable[str]) -> str:
        """RETURNS (str): the key of tokenized text (lower-cased for a `lowercase` gazetteer)."""
        key = join_tokens(tokens)
        return key.lower() if self.lowercase else key

    def lists(self, text: str, tokenize: Optional[Callable[[str], Doc]] = None) -> bool:
        """RETURNS (bool): whether `text` is a listed name (tokenized by `tokenize`, default `name_tokenizer()`:
        pass one tokenizer for many lookups, as making it copies the pipeline's rules)."""
        key = self.key_of(text, tokenize)
        if key is None or not len(self._hashes):
            return False
        return bool(self._listed(numpy.asarray([key_hash(key.split(_SEPARATOR))], dtype=numpy.uint64))[0])

    def _name_filter(self) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): uint8, the bits of the listed names' low hash bits (`FILTER_BITS`)."""
        if self._filter is None:
            bits = numpy.zeros(1 << (FILTER_BITS - 3), dtype=numpy.uint8)
            slots = (self._hashes & _FILTER_MASK).astype(numpy.int64)
            numpy.bitwise_or.at(bits, slots >> 3, numpy.left_shift(1, slots & 7).astype(numpy.uint8))
            self._filter = bits
        return self._filter

    def _listed(self, hashes: numpy.ndarray) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): bool, whether each uint64 key hash is a listed name's (the list is not empty):
        the hashes that pass the filter are searched in the sorted hashes."""
        slots = (hashes & _FILTER_MASK).astype(numpy.int64)
        maybe = numpy.flatnonzero((self._name_filter()[slots >> 3] >> (slots & 7)) & 1)
        out = numpy.zeros(len(hashes), dtype=bool)
        if len(maybe):
            wanted = hashes[maybe]
            at = numpy.minimum(self._hashes.searchsorted(wanted), len(self._hashes) - 1)
            out[maybe] = self._hashes[at] == wanted
        return out

    def add_names(self, names: Iterable[str]) -> int:
        """Tokenize and add names (each in its `spellings` with `caption_dashes`). RETURNS (int): how many new keys
        were added."""
        tokenize = self.name_tokenizer()
        written = (spelling for name in names for spelling in (spellings(name) if self.caption_dashes else [name]))
        return self.add_keys(key for key in (self.key_of(text, tokenize) for text in written) if key is not None)

    def add_keys(self, keys: Iterable[str]) -> int:
        """Add names already tokenized (`key_of`). RETURNS (int): how many new keys were added."""
        before = len(self)
        ordered = sorted(set(self.keys()).union(keys))
        hashes = numpy.unique(numpy.asarray([key_hash(k.split(_SEPARATOR)) for k in ordered], dtype=numpy.uint64))
        lengths = {key.count(_SEPARATOR) + 1 for key in ordered}
        self._set_state(pack_text("".join(f"{key}\n" for key in ordered)), hashes, lengths)
        return len(self) - before

    def clear(self) -> None:
        """Forget every name (the gazetteer then matches nothing)."""
        self._set_state(pack_text(""), numpy.zeros(0, dtype=numpy.uint64), ())

    def _set_state(
        self, packed: bytes, hashes: numpy.ndarray, lengths: Iterable[int], source: Union[str, Path] = "<memory>"
    ) -> None:
        self._packed_text = packed
        self._packed_from = source
        self._hashes = hashes
        self._filter = None
        self._lengths = sorted(set(lengths), reverse=True)  # the names' numbers of tokens, longest first

    def matches(
        self, doc: Doc, taken: Optional[Set[int]] = None, *, rolled: Optional[RolledHashes] = None
    ) -> Iterator[Tuple[int, int]]:
        """The (start, end) token spans of listed names, left to right, the longest at each start, none
        overlapping each other or a token in `taken`. `rolled`: the doc's rolled hashes, shared by gazetteers
        that match the same doc (filled as needed; see `doc_hashes`)."""
        if not len(self) or not len(doc):
            return
        taken = set(taken or ())
        rolled = {} if rolled is None else rolled
        attr = "LOWER" if self.lowercase else "ORTH"
        found: Dict[int, List[int]] = {}  # start → lengths that match there, longest first
        lengths = [n_tokens for n_tokens in self._lengths if n_tokens <= len(doc)]
        runs = [doc_hashes(doc, attr, n_tokens, rolled) for n_tokens in lengths]
        listed = self._listed(numpy.concatenate(runs)) if runs else numpy.zeros(0, dtype=bool)  # one look-up
        offset = 0
        for n_tokens, hashes in zip(lengths, runs):
            for start in numpy.flatnonzero(listed[offset : offset + len(hashes)]).tolist():
                found.setdefault(start, []).append(n_tokens)
            offset += len(hashes)
        end_of_last = 0
        for start in sorted(found):
            if start < end_of_last or start in taken:
                continue
            for n_tokens in found[start]:
                if not any(i in taken for i in range(start, start + n_tokens)):
                    yield start, start + n_tokens
                    end_of_last = start + n_tokens
                    break

    def __call__(self, doc: Doc) -> Doc:
        if not len(self):
            return doc
        taken = {i for ent in doc.ents for i in range(ent.start, ent.end)}
        added = [Span(doc, start, end, label=self.label) for start, end in self.matches(doc, taken)]
        if added:
            doc.ents = sorted(list(doc.ents) + added, key=lambda span: span.start)
        return doc

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        names_path: Optional[str] = None,
    ) -> None:
        """Read the names (one per line; `.gz` allowed). Without a file the gazetteer stays empty (a no-op)."""
        self.clear()
        if names_path is None:
            msg.warn(
                f"{self.name}: no names file given (initialize.components.{self.name}.names_path): it adds nothing"
            )
            return
        path = Path(names_path)
        if not path.is_file():
            raise FileProblemError(
                path,
                "the gazetteer's names file does not exist",
                "Build it first (spacy project run chemical-gazetteer) or set names_path to null",
            )
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf8") as file_:
            self.add_names(line.rstrip("\n") for line in file_ if line.strip())

    # serialization: gzip text, JSON and a pickle-free npz, checked on load
    def _settings(self) -> Dict[str, Union[int, str, bool, List[int]]]:
        size, crc = packed_size_and_crc(self._packed_text) or (0, 0)
        return {
            "format_version": FORMAT_VERSION,
            "label": self.label,
            "max_tokens": self.max_tokens,
            "n_names": len(self),
            "lengths": self._lengths,
            "lowercase": self.lowercase,
            "caption_dashes": self.caption_dashes,
            "text_bytes": size,
            "text_crc32": crc,
        }

    def _restore(
        self, settings: Dict, packed: Optional[bytes], plain: Optional[str], hashes: numpy.ndarray, where: Path
    ) -> None:
        """Check and take saved state: the names `packed` (format 2; `where`: its file) or `plain` (format 1)."""
        version = settings.get("format_version")
        if version not in (1, FORMAT_VERSION) or (version == 1) != (plain is not None):
            raise ArtifactError(where, f"format_version {version!r}, expected {FORMAT_VERSION}", _FIX)
        n_names = settings.get("n_names")
        if plain is not None:
            n_lines = plain.count("\n")
            if n_lines != n_names or (plain and not plain.endswith("\n")):
                raise ArtifactError(where, f"{n_lines} names, but {SETTINGS_FILE} says {n_names} (truncated?)", _FIX)
            packed = pack_text(plain)
        assert packed is not None
        recorded = (settings.get("text_bytes"), settings.get("text_crc32"))
        if plain is None and packed_size_and_crc(packed) != recorded:
            raise ArtifactError(where, f"its size or CRC-32 is not what {SETTINGS_FILE} records (truncated?)", _FIX)
        if len(hashes) != n_names:
            raise ArtifactError(where, f"{len(hashes)} hashes, but {SETTINGS_FILE} says {n_names} (truncated?)", _FIX)
        if hashes.dtype != numpy.uint64 or (len(hashes) > 1 and not bool(numpy.all(hashes[1:] > hashes[:-1]))):
            raise ArtifactError(where, "the hashes are not sorted distinct uint64 values", _FIX)
        self.label, self.max_tokens = str(settings["label"]), int(settings["max_tokens"])
        self.lowercase = bool(settings.get("lowercase", False))  # saved before the option existed: as written
        self.caption_dashes = bool(settings.get("caption_dashes", False))  # saved before it existed: one spelling
        if not isinstance(settings.get("lengths"), list) or (n_names and not settings["lengths"]):
            raise ArtifactError(where, f"{SETTINGS_FILE} lacks the names' lengths", _FIX)
        self._set_state(packed, hashes, [int(n) for n in settings["lengths"]], where)

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        (path / NAMES_FILE).write_bytes(self._packed_text)
        (path / PLAIN_NAMES_FILE).unlink(missing_ok=True)  # a format 1 save overwritten in place
        save_npz(path / HASHES_FILE, {"hashes": self._hashes})
        srsly.write_json(path / SETTINGS_FILE, self._settings())

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "Gazetteer":
        path = Path(path)
        names_file = NAMES_FILE if (path / NAMES_FILE).is_file() or not (path / PLAIN_NAMES_FILE).is_file() else None
        for file_name in (SETTINGS_FILE, names_file or PLAIN_NAMES_FILE, HASHES_FILE):
            if not (path / file_name).is_file():
                raise ArtifactError(path / file_name, "missing", _COPY_AGAIN)
        try:
            settings = json.loads((path / SETTINGS_FILE).read_text(encoding="utf8"))
        except ValueError as e:
            raise ArtifactError(path / SETTINGS_FILE, f"not valid JSON ({e})", _COPY_AGAIN) from e
        if not isinstance(settings, dict):
            raise ArtifactError(path / SETTINGS_FILE, "not a JSON object", _COPY_AGAIN)
        try:
            hashes = load_npz(path / HASHES_FILE, mmap=False)["hashes"]
        except (OSError, ValueError, KeyError) as e:
            raise ArtifactError(path / HASHES_FILE, f"unreadable ({e})", _COPY_AGAIN) from e
        if names_file is None:  # format 1
            plain = path / PLAIN_NAMES_FILE
            self._restore(settings, None, plain.read_text(encoding="utf8"), hashes, plain)
        else:
            self._restore(settings, (path / names_file).read_bytes(), None, hashes, path / names_file)
        return self

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        data = {"settings": self._settings(), "names_gz": self._packed_text, "hashes": self._hashes.tobytes()}
        return srsly.msgpack_dumps(data)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "Gazetteer":
        try:
            data = srsly.msgpack_loads(bytes_data)
            settings = data["settings"]
            packed = bytes(data["names_gz"]) if "names_gz" in data else None
            plain = str(data["names"]) if packed is None else None
            hashes = numpy.frombuffer(data["hashes"], dtype=numpy.uint64).copy()
        except (ValueError, KeyError, TypeError) as e:
            raise ArtifactError("<bytes>", f"not a serialized nseen_gazetteer ({e})", "Serialize it again") from e
        self._restore(settings, packed, plain, hashes, Path("<bytes>"))
        return self


_COPY_AGAIN = "Copy the pipeline again, or rebuild it"
_FIX = f"{_COPY_AGAIN} with this version of spacy_nseen"


def pack_text(text: str) -> bytes:
    """RETURNS (bytes): the text as gzip bytes (fast compression; no time stamp, so the same text gives the same
    bytes and a saved pipeline diffs clean)."""
    return gzip.compress(text.encode("utf8"), compresslevel=1, mtime=0)


def packed_size_and_crc(packed: bytes) -> Optional[Tuple[int, int]]:
    """RETURNS (Optional[Tuple[int, int]]): the uncompressed size (mod 2**32) and CRC-32 that the gzip trailer of
    `packed` records, None if it is not gzip data."""
    if len(packed) < 18 or packed[:2] != b"\x1f\x8b":
        return None
    crc, size = struct.unpack("<II", packed[-8:])
    return size, crc


@Language.factory(
    "nseen_gazetteer",
    default_config={"label": "CHEMICAL", "max_tokens": 8, "lowercase": False, "caption_dashes": False},
    assigns=["doc.ents"],
    requires=["doc.ents"],
)
def make_gazetteer(
    nlp: Language, name: str, label: str, max_tokens: int, lowercase: bool, caption_dashes: bool
) -> Gazetteer:
    """A gazetteer after the NER (see `Gazetteer`); its names come from `initialize` or a saved pipeline."""
    return Gazetteer(nlp, name, label=label, max_tokens=max_tokens, lowercase=lowercase, caption_dashes=caption_dashes)
