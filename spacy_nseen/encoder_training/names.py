"""Training an encoder on a user's own names: the pairs of NSEEN §3.1 a names file alone gives, and
rounds of hard-negative mining (Algorithm 1). Used by `python -m spacy_nseen train-encoder`.

The pairs: all same-entity name pairs (label 1, capped per entity) and as many random different-entity
pairs (label 0); each name's syntactic variants (`spacy_nseen.text.variants`) labelled with the normalised
Levenshtein similarity of the case-folded strings; after each round but the last, each name's nearest
names of another entity (label 0). The project's full workflow (`training.pairs.make_pairs`) adds family pairs
and more similarity labels; this is the part that needs nothing but the names.
"""

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy
import torch
from rapidfuzz.distance import Levenshtein
from spacy.util import registry
from thinc.api import Model

from ..encoder.layer import ARCHITECTURE
from ..encoder.vocab import DEFAULT_NORMALIZATION
from ..reference.reference_set import ReferenceSet
from ..text.variants import same_name_variants
from .rounds import train_in_rounds
from .siamese import StepStats, TrainingSettings, names_trainer


def variant_pairs(names: Sequence[str]) -> List[Tuple[str, str, float]]:
    """RETURNS (List[Tuple[str, str, float]]): (name, variant, label) for every syntactic variant of every
    distinct name, labelled with the normalised Levenshtein similarity of the case-folded strings (so that
    `RAS`/`ras` is a positive)."""
    return [
        (name, variant, float(Levenshtein.normalized_similarity(name.casefold(), variant.casefold())))
        for name in dict.fromkeys(names)
        for variant, _ in same_name_variants(name)
    ]


@dataclass
class NamesTrainingResult:
    """What `train_encoder_on_names` did.

    encoder (Model): the trained encoder layer (vocabulary set).
    rounds (List[Dict[str, Any]]): per round: steps, mean loss, hard negatives added.
    pair_counts (Dict[str, int]): pairs of each kind before mining.
    """

    encoder: Model
    rounds: List[Dict[str, Any]] = field(default_factory=list)
    pair_counts: Dict[str, int] = field(default_factory=dict)


def train_encoder_on_names(
    reference: ReferenceSet,
    encoder_config: Dict[str, Any],
    *,
    max_steps: int,
    rounds: int = 2,
    settings: Optional[TrainingSettings] = None,
    hard_neighbors: int = 5,
    on_step: Optional[Callable[[StepStats], None]] = None,
    char_normalization: str = DEFAULT_NORMALIZATION,
) -> NamesTrainingResult:
    """Train a new encoder on the names of a reference set for exactly `max_steps` steps.

    encoder_config (Dict[str, Any]): the architecture's arguments (vocab_size, depth, hidden_width, ...); the
        ones it leaves out take the architecture's defaults.
    max_steps (int): optimisation steps over all rounds, shared equally (the same encoder on any machine).
    rounds (int): training rounds; hard negatives are mined after each but the last.
    char_normalization (str): what the encoder reads, "nfc" or "fold" (`encoder.vocab`).
    RETURNS (NamesTrainingResult): the encoder and per-round statistics.
    """
    if max_steps < 1 or rounds < 1:
        raise ValueError(f"max_steps and rounds must be positive, got {max_steps} and {rounds}")
    settings = settings or TrainingSettings()
    torch.manual_seed(settings.seed)
    names = [str(n) for n in reference.names]
    name_entity = numpy.asarray(reference.name_entity, dtype=numpy.int64)
    encoder = registry.architectures.get(ARCHITECTURE)(**encoder_config)
    trainer, counts = names_trainer(encoder, names, name_entity, variant_pairs(names), settings, char_normalization)
    result = NamesTrainingResult(
        encoder,
        pair_counts={
            "semantic_positive": counts["semantic_positive"],
            "semantic_negative": counts["semantic_negative"],
            "variant": counts["extra"],
        },
    )
    done = train_in_rounds(
        trainer,
        names,
        name_entity,
        rounds=rounds,
        max_steps=max_steps,
        on_step=on_step,
        mine=reference.n_entities > 1,
        n_neighbors=hard_neighbors,
        seed=settings.seed,
    )
    result.rounds = [
        {
            "round": r.round_no + 1,
            "steps": len(r.result.losses),
            "mean_loss": float(numpy.mean(r.result.losses)),
            "hard_negatives_added": len(r.result.hard_left),
        }
        for r in done.rounds
    ]
    return result
