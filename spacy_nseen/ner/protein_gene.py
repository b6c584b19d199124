"""`nseen_protein_gene`: a PROTEIN or GENE entity gets the label its context gives it (Bio-ID's convention).

Bio-ID tags a gene product `GENE` where the caption is about the gene (`siRNA against Atg5`, `Atg5−/− MEFs`, `Atg5
mRNA`) and `PROTEIN` where it is about the protein (`Atg5 puncta`, `anti-Atg5`). The statistical NER sees a window
of four tokens on each side; this component reads the whole caption: a logistic regression over hashed features of
the entity (its text, shape, first and last three characters, case, length in tokens), the words around it (each of
the three words before and after by position, the two before and after as a pair, the eight on each side as a bag)
and the caption's words as a bag. It relabels an entity only when it is sure: when the probability of GENE is more
than `margin` away from ½; otherwise the NER's label stays. It never adds, removes or moves an entity, so the spans
routed to UniProt do not change.

It is trained by `spacy train` like any trainable component: `update` takes one step of stochastic gradient descent
on each gold PROTEIN and GENE entity of the reference docs, and the averaged weights predict. Saved as
`protein_gene.json` (settings) and `weights.npz` (pickle-free); a missing, truncated or foreign file raises an
`ArtifactError` that names it. Measured: `results/ner/experiments/README.md`.
"""

import json
import re
import zlib
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Union

import numpy
import srsly
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example

from ..errors import ArtifactError
from ..retrieval.array_io import load_npz, save_npz

FORMAT_VERSION = 1
SETTINGS_FILE = "protein_gene.json"
WEIGHTS_FILE = "weights.npz"
PROTEIN, GENE = "PROTEIN", "GENE"
_FIX = "Copy the pipeline again, or train it again with this version of spacy_nseen"


def word_shape(text: str) -> str:
    """RETURNS (str): `Atg5` → `Xxxd`, `LC3-II` → `XXd-XX` (runs longer than two kept at two)."""
    shape = re.sub(r"[0-9]", "d", re.sub(r"[a-z]", "x", re.sub(r"[A-Z]", "X", text)))
    return re.sub(r"(.)\1{2,}", r"\1\1", shape)


def caption_features(doc: Doc) -> List[str]:
    """RETURNS (List[str]): the features every entity of the doc shares: its words, lower-cased, as a bag."""
    strings = doc.vocab.strings  # the tokens' LOWER ids, read at once (not a Token object per token)
    return ["cw=" + w for w in sorted({strings[h] for h in doc.to_array("LOWER").tolist()})]


def entity_features(doc: Doc, start: int, end: int, *, with_caption: bool = True) -> List[str]:
    """RETURNS (List[str]): the features of the tokens `doc[start:end]` (see the module doc); without the caption's
    bag of words (`caption_features`) if `with_caption` is False."""
    text = doc[start:end].text
    case = "upper" if text.isupper() else "title" if text[:1].isupper() else "lower" if text[:1].islower() else "other"
    out = [
        "bias",
        "m=" + text.lower(),
        "shape=" + word_shape(text),
        "pre=" + text[:3].lower(),
        "suf=" + text[-3:].lower(),
        "case=" + case,
        f"ntok={min(end - start, 4)}",
    ]
    for i in range(1, 4):
        out.append(f"L{i}=" + (doc[start - i].lower_ if start - i >= 0 else "<s>"))
        out.append(f"R{i}=" + (doc[end + i - 1].lower_ if end + i - 1 < len(doc) else "</s>"))
    out.append("L12=" + "|".join(t.lower_ for t in doc[max(0, start - 2) : start]))
    out.append("R12=" + "|".join(t.lower_ for t in doc[end : end + 2]))
    out.extend("lw=" + t.lower_ for t in doc[max(0, start - 8) : start])
    out.extend("rw=" + t.lower_ for t in doc[end : end + 8])
    if with_caption:
        out.extend(caption_features(doc))
    return out


def logistic(z: float) -> float:
    """RETURNS (float): σ(z), with z clipped to [−30, 30]: the probability of GENE for a logit."""
    return float(1.0 / (1.0 + numpy.exp(-numpy.clip(z, -30.0, 30.0))))


def hashed(features: Iterable[str], n_features: int) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): int64, each feature's column (CRC-32 of its UTF-8 text, modulo `n_features`)."""
    return numpy.fromiter((zlib.crc32(f.encode("utf8")) % n_features for f in features), dtype=numpy.int64)


class ProteinGeneLabeler:
    """Relabels PROTEIN and GENE entities by their context (see the module doc).

    n_features (int): columns of the hashed feature space.
    margin (float): relabel only where |P(GENE) − ½| exceeds it (0: always the regression's label).
    learn_rate (float): step of the stochastic gradient descent in `update`.
    """

    def __init__(
        self,
        nlp: Language,
        name: str = "nseen_protein_gene",
        *,
        n_features: int = 1 << 18,
        margin: float = 0.2,
        learn_rate: float = 0.1,
    ) -> None:
        if n_features < 1:
            raise ValueError(f"{name}: n_features must be at least 1, got {n_features}")
        if not 0.0 <= margin < 0.5:
            raise ValueError(f"{name}: margin must be in [0, 0.5), got {margin}")
        if learn_rate <= 0:
            raise ValueError(f"{name}: learn_rate must be > 0, got {learn_rate}")
        self.name = name
        self.n_features, self.margin, self.learn_rate = n_features, margin, learn_rate
        self._reset()

    def _reset(self) -> None:
        self._weights = numpy.zeros(self.n_features, dtype=numpy.float64)
        self._totals = numpy.zeros(self.n_features, dtype=numpy.float64)  # for the averaged weights
        self.n_updates = 0
        self._averaged: Optional[numpy.ndarray] = None

    @property
    def weights(self) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the averaged weights that predict (float32)."""
        if self._averaged is None:
            mean = self._weights - self._totals / max(self.n_updates, 1)
            self._averaged = mean.astype(numpy.float32)
        return self._averaged

    def gene_probability(self, doc: Doc, start: int, end: int, caption: Optional[float] = None) -> float:
        """RETURNS (float): the probability that `doc[start:end]` is tagged GENE rather than PROTEIN.

        caption (Optional[float]): `caption_score(doc)`, when the caller has it (one per doc).
        """
        caption = self.caption_score(doc) if caption is None else caption
        return logistic(float(self.weights[self._entity_columns(doc, start, end)].sum()) + caption)

    def caption_score(self, doc: Doc) -> float:
        """RETURNS (float): the part of an entity's logit that the caption's bag of words gives (the same for all)."""
        return float(self.weights[self._caption_columns(doc)].sum())

    def _entity_columns(self, doc: Doc, start: int, end: int) -> numpy.ndarray:
        return hashed(entity_features(doc, start, end, with_caption=False), self.n_features)

    def _caption_columns(self, doc: Doc) -> numpy.ndarray:
        return hashed(caption_features(doc), self.n_features)

    def label_of(self, ent: Span, caption: Optional[float] = None) -> str:
        """RETURNS (str): the label the component gives a PROTEIN or GENE entity (its own if unsure)."""
        p = self.gene_probability(ent.doc, ent.start, ent.end, caption)
        if p > 0.5 + self.margin:
            return GENE
        if p < 0.5 - self.margin:
            return PROTEIN
        return ent.label_

    def __call__(self, doc: Doc) -> Doc:
        if not self.n_updates:
            return doc
        changed = False
        ents = list(doc.ents)
        caption: Optional[float] = None
        for i, ent in enumerate(ents):
            if ent.label_ in (PROTEIN, GENE):
                caption = self.caption_score(doc) if caption is None else caption
                label = self.label_of(ent, caption)
                if label != ent.label_:
                    ents[i] = Span(doc, ent.start, ent.end, label=label, kb_id=ent.kb_id, span_id=ent.id)
                    changed = True
        if changed:
            doc.ents = ents
        return doc

    def pipe(self, stream: Iterable[Doc], batch_size: int = 128) -> Iterable[Doc]:
        for doc in stream:
            yield self(doc)

    # training -------------------------------------------------------------------------------------------------

    def initialize(self, get_examples: Callable[[], Iterable[Example]], *, nlp: Optional[Language] = None) -> None:
        """Start from zero weights (training data is read by `update`)."""
        self._reset()

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Optional[object] = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """One gradient step per gold PROTEIN or GENE entity of the reference docs; adds the log loss to `losses`."""
        losses = {} if losses is None else losses
        loss = 0.0
        for eg in examples:
            doc = eg.reference
            caption: Optional[numpy.ndarray] = None  # the caption's columns, shared by its entities
            for ent in doc.ents:
                if ent.label_ not in (PROTEIN, GENE):
                    continue
                caption = self._caption_columns(doc) if caption is None else caption
                columns = numpy.concatenate([self._entity_columns(doc, ent.start, ent.end), caption])
                p = logistic(float(self._weights[columns].sum()))
                y = 1.0 if ent.label_ == GENE else 0.0
                loss -= float(numpy.log(p if y else 1.0 - p) if 0.0 < p < 1.0 else 0.0)
                step = self.learn_rate * (p - y)
                numpy.subtract.at(self._weights, columns, step)
                numpy.subtract.at(self._totals, columns, self.n_updates * step)
                self.n_updates += 1
        self._averaged = None
        losses[self.name] = losses.get(self.name, 0.0) + loss
        return losses

    def finish_update(self, sgd: Optional[object]) -> None:
        """Nothing to do: `update` applies its own steps."""

    # serialization: JSON and a pickle-free npz, checked on load ---------------------------------------------

    def to_disk(self, path: Union[str, Path], *, exclude: Sequence[str] = tuple()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        save_npz(path / WEIGHTS_FILE, {"weights": self.weights})
        srsly.write_json(path / SETTINGS_FILE, self._settings())

    def to_bytes(self, *, exclude: Sequence[str] = tuple()) -> bytes:
        """RETURNS (bytes): what `to_disk` writes, as one msgpack blob (so `nlp.to_bytes` keeps the weights)."""
        weights = numpy.ascontiguousarray(self.weights, dtype=numpy.float32)
        return srsly.msgpack_dumps({"settings": self._settings(), "weights": weights.tobytes()})

    def from_bytes(self, bytes_data: bytes, *, exclude: Sequence[str] = tuple()) -> "ProteinGeneLabeler":
        """Restore from `to_bytes`; a blob from another version raises a ValueError that says so."""
        try:
            data = srsly.msgpack_loads(bytes_data)
            settings, raw = data["settings"], data["weights"]
        except (ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{self.name}: not the bytes of an nseen_protein_gene component ({e}). {_FIX}.") from e
        if not isinstance(settings, dict) or settings.get("format_version") != FORMAT_VERSION:
            raise ValueError(
                f"{self.name}: bytes of format {settings.get('format_version') if isinstance(settings, dict) else settings!r}, "
                f"expected {FORMAT_VERSION}. {_FIX}."
            )
        weights = numpy.frombuffer(raw, dtype=numpy.float32)
        if weights.shape != (int(settings.get("n_features", -1)),):
            raise ValueError(
                f"{self.name}: {len(weights)} weights, the settings say {settings.get('n_features')}. {_FIX}."
            )
        self._restore(settings, weights.copy())
        return self

    def _settings(self) -> Dict[str, Union[int, float]]:
        return {
            "format_version": FORMAT_VERSION,
            "n_features": self.n_features,
            "margin": self.margin,
            "n_updates": self.n_updates,
        }

    def _restore(self, settings: Dict[str, Union[int, float]], weights: numpy.ndarray) -> None:
        self.n_features, self.margin = int(settings["n_features"]), float(settings["margin"])
        self._reset()
        self._weights = weights.astype(numpy.float64)
        self._averaged = weights
        self.n_updates = int(settings.get("n_updates", 0))

    def from_disk(self, path: Union[str, Path], *, exclude: Sequence[str] = tuple()) -> "ProteinGeneLabeler":
        path = Path(path)
        for file_name in (SETTINGS_FILE, WEIGHTS_FILE):
            if not (path / file_name).is_file():
                raise ArtifactError(path / file_name, "missing", _FIX)
        try:
            settings = json.loads((path / SETTINGS_FILE).read_text(encoding="utf8"))
        except ValueError as e:
            raise ArtifactError(path / SETTINGS_FILE, f"not valid JSON ({e})", _FIX) from e
        if not isinstance(settings, dict) or settings.get("format_version") != FORMAT_VERSION:
            found = settings.get("format_version") if isinstance(settings, dict) else settings
            raise ArtifactError(path / SETTINGS_FILE, f"format_version {found!r}, expected {FORMAT_VERSION}", _FIX)
        try:
            weights = load_npz(path / WEIGHTS_FILE, mmap=False)["weights"]
        except (OSError, ValueError, KeyError) as e:
            raise ArtifactError(path / WEIGHTS_FILE, f"unreadable ({e})", _FIX) from e
        n_features = int(settings.get("n_features", -1))
        if weights.dtype != numpy.float32 or weights.shape != (n_features,):
            raise ArtifactError(
                path / WEIGHTS_FILE,
                f"{weights.dtype} weights of shape {weights.shape}, but "
                f"{SETTINGS_FILE} says {n_features} float32 (truncated or foreign file)",
                _FIX,
            )
        self._restore(settings, weights)
        return self


@Language.factory(
    "nseen_protein_gene",
    default_config={"n_features": 1 << 18, "margin": 0.2, "learn_rate": 0.1},
    assigns=["doc.ents"],
)
def make_protein_gene(
    nlp: Language, name: str, n_features: int, margin: float, learn_rate: float
) -> ProteinGeneLabeler:
    """The `nseen_protein_gene` component (see `ProteinGeneLabeler`)."""
    return ProteinGeneLabeler(nlp, name, n_features=n_features, margin=margin, learn_rate=learn_rate)
