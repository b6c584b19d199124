"""`nseen_name_features`: which tokens belong to a reference name, as a feature the NER's tok2vec reads.

A statistical NER learns the names of its training captions; a protein or chemical first met in new text is often
missed. This component, placed before the `tok2vec`, marks every token that is part of a listed name, one list per
label (e.g. PROTEIN: the UniProt names; CHEMICAL: the ChEBI names), with its position in the name: B(egin), I(nside),
L(ast), U(nit, a one-token name) or O: `doc._.nseen_name_features` is a uint64 array of one row per token and
one column per label, which `spacy_nseen.NameFeatureHashEmbed.v1` embeds beside NORM, PREFIX, SUFFIX and SHAPE.
The NER learns how far to trust each list; the component never sets entities itself.

Matching is `Gazetteer.matches` (the tokens' lower-case forms unless `lowercase` is false, the pipeline's
tokenizer, the longest name at each position, left to right). Saved as one gazetteer folder per label plus
`name_features.json` (settings); a missing, truncated or foreign file raises an `ArtifactError` that names it.
"""

import json
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy
import srsly
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.training import Example
from wasabi import msg

from ..errors import ArtifactError
from .gazetteer import Gazetteer, RolledHashes

FORMAT_VERSION = 1
SETTINGS_FILE = "name_features.json"
EXTENSION = "nseen_name_features"
POSITIONS = ("O", "B", "I", "L", "U")  # a token's place in a listed name; its index is the code

if not Doc.has_extension(EXTENSION):
    Doc.set_extension(EXTENSION, default=None)


def position_codes(n_tokens: int, spans: Iterable[Sequence[int]]) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): uint64, per token the index in `POSITIONS` of its place in one of `spans`
    ((start, end) token offsets, not overlapping), 0 (O) outside them."""
    codes = numpy.zeros(n_tokens, dtype=numpy.uint64)
    for start, end in spans:
        if end - start == 1:
            codes[start] = 4
        else:
            codes[start] = 1
            codes[start + 1 : end - 1] = 2
            codes[end - 1] = 3
    return codes


class NameFeatures(Pipe):
    """Writes `doc._.nseen_name_features`: per token, where it sits in a name of each label's list.

    labels (List[str]): one list of names per label, in this order (the order of the feature columns).
    max_tokens (int): the longest name, in tokens, that is listed and looked for.
    lowercase (bool): match the tokens' lower-case forms (`Vps30` finds yeast `VPS30`, `Becn1` mouse `Becn1`).
    """

    def __init__(
        self,
        nlp: Language,
        name: str = "nseen_name_features",
        *,
        labels: List[str],
        max_tokens: int,
        lowercase: bool = True,
    ) -> None:
        if not labels or len(set(labels)) != len(labels) or not all(labels):
            raise ValueError(f"nseen_name_features needs distinct, non-empty labels, got {labels!r}")
        self.nlp = nlp
        self.name = name
        self._labels = tuple(labels)
        self.max_tokens = max_tokens
        self.gazetteers: Dict[str, Gazetteer] = {
            label: Gazetteer(nlp, f"{name}.{label}", label=label, max_tokens=max_tokens, lowercase=lowercase)
            for label in self._labels
        }

    @property
    def labels(self) -> Tuple[str, ...]:
        """RETURNS (Tuple[str, ...]): the labels of the name lists, in the order of the feature columns."""
        return self._labels

    def features(self, doc: Doc) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): uint64 (tokens × labels), each token's place in a name of each label's list."""
        rolled: RolledHashes = {}  # the doc's rolled hashes, computed once for all the labels' gazetteers
        columns = [
            position_codes(len(doc), self.gazetteers[label].matches(doc, rolled=rolled)) for label in self.labels
        ]
        return numpy.stack(columns, axis=1) if len(doc) else numpy.zeros((0, len(self.labels)), dtype=numpy.uint64)

    def __call__(self, doc: Doc) -> Doc:
        doc._.set(EXTENSION, self.features(doc))
        return doc

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        names_paths: Optional[Dict[str, Optional[str]]] = None,
    ) -> None:
        """Read each label's names (one per line; `.gz` allowed). A label without a file gets an empty list (its
        code is always O), with a warning; a label the component does not have is an error."""
        paths = dict(names_paths or {})
        unknown = sorted(set(paths) - set(self.labels))
        if unknown:
            raise ValueError(
                f"{self.name}: names_paths has labels {unknown} that are not in labels {list(self.labels)}"
            )
        for label in self.labels:
            if paths.get(label) is None:
                msg.warn(
                    f"{self.name}: no names file for {label} (initialize.components.{self.name}.names_paths."
                    f"{label}): its feature is always O"
                )
                self.gazetteers[label].clear()
                continue
            self.gazetteers[label].initialize(get_examples, nlp=nlp, names_path=paths[label])

    # serialization: one gazetteer per label (text, JSON, pickle-free npz) and the settings, checked on load
    def _settings(self) -> Dict[str, Union[int, List[str]]]:
        return {"format_version": FORMAT_VERSION, "labels": list(self.labels), "max_tokens": self.max_tokens}

    def _check_settings(self, settings: Dict, where: Union[str, Path]) -> None:
        fix = "Copy the pipeline again, or rebuild it with this version of spacy_nseen"
        if settings.get("format_version") != FORMAT_VERSION:
            raise ArtifactError(
                where, f"format_version {settings.get('format_version')!r}, expected {FORMAT_VERSION}", fix
            )
        if settings.get("labels") != list(self.labels):
            raise ArtifactError(
                where, f"labels {settings.get('labels')!r}, but the config says {list(self.labels)!r}", fix
            )

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / SETTINGS_FILE, self._settings())
        for label, gazetteer in self.gazetteers.items():
            gazetteer.to_disk(path / label)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "NameFeatures":
        path = Path(path)
        settings_path = path / SETTINGS_FILE
        if not settings_path.is_file():
            raise ArtifactError(settings_path, "missing", "Copy the pipeline again, or rebuild it")
        try:
            settings = json.loads(settings_path.read_text(encoding="utf8"))
        except ValueError as e:
            raise ArtifactError(settings_path, f"not valid JSON ({e})", "Copy the pipeline again, or rebuild it") from e
        self._check_settings(settings, settings_path)
        for label, gazetteer in self.gazetteers.items():
            gazetteer.from_disk(path / label)
        return self

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        data = {"settings": self._settings(), "gazetteers": {k: g.to_bytes() for k, g in self.gazetteers.items()}}
        return srsly.msgpack_dumps(data)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "NameFeatures":
        try:
            data = srsly.msgpack_loads(bytes_data)
            settings, gazetteers = data["settings"], data["gazetteers"]
        except (ValueError, KeyError, TypeError) as e:
            raise ArtifactError("<bytes>", f"not a serialized nseen_name_features ({e})", "Serialize it again") from e
        self._check_settings(settings, "<bytes>")
        for label, gazetteer in self.gazetteers.items():
            if label not in gazetteers:
                raise ArtifactError("<bytes>", f"no names for label {label!r}", "Serialize it again")
            gazetteer.from_bytes(gazetteers[label])
        return self


@Language.factory(
    "nseen_name_features",
    default_config={"labels": ["PROTEIN", "CHEMICAL"], "max_tokens": 8, "lowercase": True},
    assigns=[f"doc._.{EXTENSION}"],
)
def make_name_features(nlp: Language, name: str, labels: List[str], max_tokens: int, lowercase: bool) -> NameFeatures:
    """Name features before the tok2vec (see `NameFeatures`); the names come from `initialize` or a saved pipeline."""
    return NameFeatures(nlp, name, labels=labels, max_tokens=max_tokens, lowercase=lowercase)
