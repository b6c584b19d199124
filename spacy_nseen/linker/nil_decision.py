"""The NIL decision: the probability that a mention's best candidate is the right entity.

A mention whose best candidate is probably wrong (an epitope tag such as `Flag`, a protein of an organism
outside the reference set, an NER false positive) should stay unlinked. `NilModel` is a logistic regression
over a few features of the linker's answer (`mention_features`): whether the best name matches exactly, the
best score, its margin over the second entity, how many entities tie exactly, the mention's length and shape,
and the organism evidence. It is trained on examples made from the reference sets alone
(`training/linker/train_nil.py`: names of held-out entities, names of the other reference set, tags and reporters),
then recalibrated with two numbers (Platt scaling) on tuning documents, so that its output is a probability.
Saved as JSON (`nil_model.json` in the linker directory): no pickle.
"""

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Protocol, Sequence, Tuple, Union

import numpy

from ..errors import ArtifactError
from ..organisms.ranking import OrganismContext
from ..text.tag_names import is_tag_name
from .taxon_lookup import TaxonLookup

NIL_MODEL_FILE = "nil_model.json"
NIL_MODEL_VERSION = 2
FEATURES = (
    "bias",
    "exact",
    "score",
    "margin",
    "log_exact_entities",
    "log_length",
    "short_upper",
    "digit_share",
    "has_space",
    "organism_match",
    "organism_other",
    "organism_outside_set",
    "tag_name",
)
REFIT = "Train the NIL model again (python -m training.linker.train_nil) or remove the file to link without it."


def tag_name_rows(features: numpy.ndarray) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): bool, which rows of `mention_features` are of a tag name (`text.tag_names`)."""
    return numpy.asarray(features)[:, FEATURES.index("tag_name")] > 0


class CandidateLike(Protocol):
    """What the features read of a candidate: its id and score (`kb_linker.Candidate` fits)."""

    @property
    def kb_id(self) -> str: ...

    @property
    def score(self) -> float: ...


def mention_features(
    mention: str,
    candidates: Sequence["CandidateLike"],
    context: Optional[OrganismContext] = None,
    taxon_of: Optional[Union[Mapping[str, int], TaxonLookup]] = None,
    known_taxa: Sequence[int] = (),
) -> numpy.ndarray:
    """The feature vector (in the order of `FEATURES`) of one linked mention.

    mention (str): the mention as searched.
    candidates (Sequence): its candidates, best first (may be empty).
    context (Optional[OrganismContext]): the organism the mention was assigned to, if any.
    taxon_of (Optional[Union[Mapping[str, int], TaxonLookup]]): kb_id → taxon of the candidates (multi-organism sets).
    known_taxa (Sequence[int]): the taxa the reference set covers.
    RETURNS (numpy.ndarray): float64 features.
    """
    text = mention.strip()
    scores = [float(c.score) for c in candidates]
    best = scores[0] if scores else 0.0
    second = scores[1] if len(scores) > 1 else 0.0
    n_exact = sum(1 for s in scores if s >= 1.0)
    letters = [ch for ch in text if ch.isalpha()]
    short_upper = float(len(text) <= 4 and bool(letters) and all(ch.isupper() for ch in letters))
    digits = sum(ch.isdigit() for ch in text)
    match = other = outside = 0.0
    if context is not None and context.taxon is not None and known_taxa:
        if context.taxon not in known_taxa:
            outside = 1.0
        elif candidates and taxon_of is not None:
            top_taxon = taxon_of.get(candidates[0].kb_id)
            match = float(top_taxon == context.taxon) * context.confidence
            other = float(top_taxon is not None and top_taxon != context.taxon) * context.confidence
    return numpy.asarray(
        [
            1.0,
            float(best >= 1.0),
            best,
            best - second,
            math.log1p(n_exact),
            math.log1p(len(text)),
            short_upper,
            digits / max(1, len(text)),
            float(" " in text),
            match,
            other,
            outside,
            float(is_tag_name(text)),
        ],
        dtype=numpy.float64,
    )


@dataclass
class NilModel:
    """Logistic regression over `FEATURES`, then Platt scaling: p = σ(a·(w·x) + b).

    weights (List[float]): one per feature (the first is the bias).
    platt_a, platt_b (float): the recalibration (1, 0 = none).
    threshold (float): the operating point chosen when the model was tuned (the component's `threshold`
        default for this reference set; stored for the record).
    info (Dict): how it was trained and tuned (counts, commands, metrics).
    """

    weights: List[float]
    platt_a: float = 1.0
    platt_b: float = 0.0
    threshold: float = 0.5
    info: Dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"a NIL model has {len(FEATURES)} weights, got {len(self.weights)}")

    def logits(self, features: numpy.ndarray) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the uncalibrated logits w·x of rows of features."""
        return numpy.atleast_2d(features) @ numpy.asarray(self.weights, dtype=numpy.float64)

    def probabilities(self, features: numpy.ndarray) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the calibrated probabilities that each best candidate is right."""
        z = self.platt_a * self.logits(features) + self.platt_b
        return _logistic(z)

    def to_disk(self, path: Union[str, Path]) -> None:
        data = {
            "version": NIL_MODEL_VERSION,
            "features": list(FEATURES),
            "weights": self.weights,
            "platt_a": self.platt_a,
            "platt_b": self.platt_b,
            "threshold": self.threshold,
            "info": self.info,
        }
        Path(path).write_text(json.dumps(data, indent=2), encoding="utf8")

    @classmethod
    def from_disk(cls, path: Union[str, Path]) -> "NilModel":
        """Read `nil_model.json`; a missing, corrupt or foreign file raises an ArtifactError naming it."""
        path = Path(path)
        if not path.exists():
            raise ArtifactError(path, "NIL model file not found", REFIT)
        try:
            data = json.loads(path.read_text(encoding="utf8"))
            version = data["version"]
            features = data["features"]
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as err:
            raise ArtifactError(path, f"not a valid NIL model ({type(err).__name__}: {err})", REFIT) from None
        if version != NIL_MODEL_VERSION or list(features) != list(FEATURES):
            raise ArtifactError(
                path,
                f"NIL model version {version} with features {features}; this spacy_nseen reads "
                f"version {NIL_MODEL_VERSION} with {list(FEATURES)}",
                REFIT,
            )
        try:
            return cls(
                [float(w) for w in data["weights"]],
                float(data["platt_a"]),
                float(data["platt_b"]),
                float(data["threshold"]),
                dict(data.get("info", {})),
            )
        except (ValueError, KeyError, TypeError) as err:
            raise ArtifactError(path, f"not a valid NIL model ({type(err).__name__}: {err})", REFIT) from None


def _logistic(z: numpy.ndarray) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): σ(z), z clipped to [−50, 50]."""
    return 1.0 / (1.0 + numpy.exp(-numpy.clip(z, -50, 50)))


def fit_logistic(features: numpy.ndarray, labels: numpy.ndarray, l2: float = 1e-3, steps: int = 500) -> List[float]:
    """Fit logistic regression weights by Newton's method (deterministic, numpy only).

    features (numpy.ndarray): (n, d) rows, the first column the bias.
    labels (numpy.ndarray): (n,) 0/1.
    l2 (float): ridge penalty on every weight but the bias.
    RETURNS (List[float]): d weights.
    """
    x = numpy.asarray(features, dtype=numpy.float64)
    y = numpy.asarray(labels, dtype=numpy.float64)
    w = numpy.zeros(x.shape[1])
    penalty = numpy.full(x.shape[1], l2 * len(y))
    penalty[0] = 0.0
    for _ in range(steps):
        p = _logistic(x @ w)
        grad = x.T @ (p - y) + penalty * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + numpy.diag(penalty) + 1e-9 * numpy.eye(x.shape[1])
        delta = numpy.linalg.solve(hess, grad)
        w -= delta
        if numpy.abs(delta).max() < 1e-8:
            break
    return [float(v) for v in w]


def fit_platt(logits: numpy.ndarray, labels: numpy.ndarray) -> Tuple[float, float]:
    """RETURNS (Tuple[float, float]): a, b such that σ(a·logit + b) fits the labels (Platt scaling)."""
    x = numpy.column_stack([numpy.ones(len(logits)), numpy.asarray(logits, dtype=numpy.float64)])
    b, a = fit_logistic(x, labels, l2=0.0)
    return a, b


def expected_calibration_error(probabilities: numpy.ndarray, labels: numpy.ndarray, bins: int = 10) -> float:
    """RETURNS (float): the expected calibration error over equal-width probability bins."""
    p = numpy.asarray(probabilities, dtype=numpy.float64)
    y = numpy.asarray(labels, dtype=numpy.float64)
    if not len(p):
        return 0.0
    which = numpy.minimum((p * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        mask = which == b
        if mask.any():
            total += mask.sum() / len(p) * abs(p[mask].mean() - y[mask].mean())
    return float(total)
