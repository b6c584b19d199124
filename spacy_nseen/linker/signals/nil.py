"""The NIL decision stage: the linker's `NilModel` on the features of its ranked answer (`nil_decision`)."""

from typing import Any, Optional, Sequence

import numpy

from ...organisms.ranking import OrganismContext
from ..candidate import Candidate
from ..linker_parts import LinkerParts
from ..nil_decision import FEATURES, NilModel, mention_features
from .base import Queries, decision_stage


def decision_features(
    linker: LinkerParts,
    mentions: Sequence[str],
    results: Sequence[Sequence[Candidate]],
    contexts: Optional[Sequence[Optional[OrganismContext]]] = None,
) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): the `mention_features` rows of a linker's results (what the NIL stage reads; the
    training of the NIL model reads the same, `training/train_nil.py`, `training/tune_nil.py`).

    linker (LinkerParts): the linker that linked them (its reference set's taxa).
    """
    if not len(mentions):
        return numpy.zeros((0, len(FEATURES)))
    taxa = linker.reference_set.taxa
    taxon_of = linker.taxon_lookup() if taxa else None
    contexts = contexts if contexts is not None else [None] * len(mentions)
    return numpy.vstack([mention_features(m, c, ctx, taxon_of, taxa) for m, c, ctx in zip(mentions, results, contexts)])


@decision_stage
class NilDecision:
    """The probability that each mention's best candidate is right: `mention_features` → `NilModel`."""

    name = "nil"
    setting = "nil_decision"

    def __init__(self, model: NilModel, linker: Any) -> None:
        self.model = model
        self.linker = linker

    @classmethod
    def from_linker(cls, linker, settings, mode: str) -> Optional["NilDecision"]:
        if linker.nil_model is None or not settings.nil_decision:
            return None
        return cls(linker.nil_model, linker)

    def probabilities(self, queries: Queries, results: Sequence[Sequence[Candidate]]) -> numpy.ndarray:
        if not len(results):
            return numpy.zeros(0)
        probabilities = self.model.probabilities(
            decision_features(self.linker, queries.written, results, queries.contexts)
        )
        probabilities[[not c for c in results]] = 0.0
        return probabilities
