"""Training the Siamese encoder (NSEEN §3.1, Algorithm 1) on labelled name pairs.

Each step samples a batch of labelled pairs, encodes every distinct string of the batch once, and
scores (a) the labelled pairs with the soft contrastive loss and (b) all in-batch pairs of reference
names whose label is known from the reference set (same entity = 1, different = 0), with positives and
negatives averaged separately. Hard negatives are mined between rounds with an Annoy index over all
reference names: a nearest neighbour of another entity becomes a label-0 pair. `hard_negative_round` is one
round of Algorithm 1 (train, then mine); `rounds.train_in_rounds` runs the rounds for both trainers.
"""

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy
import torch
from thinc.api import Model

from ..encoder.layer import encode_names, get_char_vocab, get_torch_module
from ..encoder.vocab import DEFAULT_NORMALIZATION
from ..retrieval.name_index import AnnoyNameIndex
from .losses import in_batch_info_nce, soft_contrastive_loss

IN_BATCH_LOSSES = ("contrastive", "infonce")


@dataclass
class TrainingSettings:
    """Optimisation settings.

    batch_pairs (int): labelled pairs per step.
    in_batch_weight (float): weight of the loss over all in-batch pairs of known label (0 = off).
    in_batch_loss (str): "infonce" (a softmax over each name's in-batch cosines, `losses.in_batch_info_nce`:
        the measured winner, the default) or "contrastive" (eq. 1 over every pair, positives and negatives
        averaged apart: the paper's loss). The labelled pairs always get the paper's eq. 1–2.
    temperature (float): τ of "infonce".
    margin (float): contrastive margin m.
    learning_rate (float): AdamW learning rate.
    weight_decay (float): AdamW weight decay.
    grad_clip (float): gradient norm clip (0 = off).
    seed (int): seed of batch order and torch.
    """

    batch_pairs: int = 256
    in_batch_weight: float = 1.0
    in_batch_loss: str = "infonce"
    temperature: float = 0.05
    margin: float = 1.0
    learning_rate: float = 2e-3
    weight_decay: float = 0.01
    grad_clip: float = 1.0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.in_batch_loss not in IN_BATCH_LOSSES:
            raise ValueError(f"in_batch_loss must be one of {IN_BATCH_LOSSES}, got {self.in_batch_loss!r}")
        if self.temperature <= 0:
            raise ValueError(f"temperature must be positive, got {self.temperature}")


@dataclass
class StepStats:
    loss: float
    n_pairs: int
    n_in_batch_pairs: int
    n_strings: int


class SiameseTrainer:
    """Trains the torch module inside an encoder layer on labelled pairs.

    encoder (Model): the encoder layer, with its character vocabulary set.
    strings (Sequence[str]): every string a pair may refer to.
    string_entity (numpy.ndarray): int, entity index of each string, -1 if unknown (a generated variant).
    left, right (numpy.ndarray): string indices of each pair.
    label (numpy.ndarray): float label in [0, 1] of each pair.
    settings (TrainingSettings): optimisation settings.
    pair_weight (Optional[numpy.ndarray]): sampling weight of each pair (e.g. per pair set); None samples
        every pair once per epoch, otherwise an epoch draws len(pairs) pairs with replacement.
    """

    def __init__(
        self,
        encoder: Model,
        strings: Sequence[str],
        string_entity: numpy.ndarray,
        left: numpy.ndarray,
        right: numpy.ndarray,
        label: numpy.ndarray,
        settings: Optional[TrainingSettings] = None,
        pair_weight: Optional[numpy.ndarray] = None,
    ) -> None:
        if get_char_vocab(encoder) is None:
            raise ValueError("set the encoder's character vocabulary before training")
        if not (len(left) == len(right) == len(label)):
            raise ValueError("left, right and label must have the same length")
        self.encoder = encoder
        self.module = get_torch_module(encoder)
        self.strings = list(strings)
        self.string_entity = numpy.asarray(string_entity, dtype=numpy.int64)
        self.left = numpy.asarray(left, dtype=numpy.int64)
        self.right = numpy.asarray(right, dtype=numpy.int64)
        self.label = numpy.asarray(label, dtype=numpy.float32)
        self.pair_weight = None if pair_weight is None else numpy.asarray(pair_weight, dtype=numpy.float64)
        if self.pair_weight is not None and len(self.pair_weight) != len(self.label):
            raise ValueError("pair_weight must have one weight per pair")
        self.settings = settings or TrainingSettings()
        torch.manual_seed(self.settings.seed)
        self.rng = numpy.random.default_rng(self.settings.seed)
        self.optimizer = torch.optim.AdamW(
            self.module.parameters(), lr=self.settings.learning_rate, weight_decay=self.settings.weight_decay
        )
        self.steps_done = 0

    def add_pairs(self, left: numpy.ndarray, right: numpy.ndarray, label: numpy.ndarray, weight: float = 1.0) -> None:
        """Append pairs (e.g. mined hard negatives) to the training data, with one sampling weight."""
        if self.pair_weight is not None:
            self.pair_weight = numpy.concatenate([self.pair_weight, numpy.full(len(left), weight)])
        self.left = numpy.concatenate([self.left, numpy.asarray(left, dtype=numpy.int64)])
        self.right = numpy.concatenate([self.right, numpy.asarray(right, dtype=numpy.int64)])
        self.label = numpy.concatenate([self.label, numpy.asarray(label, dtype=numpy.float32)])

    def batches(self) -> Iterator[numpy.ndarray]:
        """One epoch of pair-index batches in a seeded random order."""
        if self.pair_weight is None:
            order = self.rng.permutation(len(self.label))
        else:
            order = self.rng.choice(len(self.label), size=len(self.label), p=self.pair_weight / self.pair_weight.sum())
        size = self.settings.batch_pairs
        for start in range(0, len(order), size):
            yield order[start : start + size]

    def step(self, batch: numpy.ndarray) -> StepStats:
        """One optimisation step on the pairs `batch` (indices into the pair arrays)."""
        settings = self.settings
        left, right = self.left[batch], self.right[batch]
        distinct, inverse = numpy.unique(numpy.concatenate([left, right]), return_inverse=True)
        vocab = get_char_vocab(self.encoder)
        if vocab is None:
            raise ValueError("the encoder has no character vocabulary: fit one before training (set_char_vocab)")
        ids, lengths = vocab.batch([self.strings[i] for i in distinct], self.encoder.attrs["max_length"])
        self.module.train()
        vectors = self.module(torch.from_numpy(ids), torch.from_numpy(lengths))
        li = torch.from_numpy(inverse[: len(batch)])
        ri = torch.from_numpy(inverse[len(batch) :])
        distance = 1.0 - (vectors[li] * vectors[ri]).sum(dim=-1)
        loss = soft_contrastive_loss(distance, torch.from_numpy(self.label[batch]), settings.margin)
        n_in_batch = 0
        if settings.in_batch_weight > 0:
            in_batch_loss, n_in_batch = self._in_batch_loss(vectors, self.string_entity[distinct])
            loss = loss + settings.in_batch_weight * in_batch_loss
        self.optimizer.zero_grad()
        loss.backward()
        if settings.grad_clip > 0:
            torch.nn.utils.clip_grad_norm_(self.module.parameters(), settings.grad_clip)
        self.optimizer.step()
        self.steps_done += 1
        return StepStats(float(loss.detach()), len(batch), n_in_batch, len(distinct))

    def _in_batch_loss(self, vectors: torch.Tensor, entities: numpy.ndarray) -> Tuple[torch.Tensor, int]:
        known = numpy.flatnonzero(entities >= 0)
        if len(known) < 2:
            return vectors.sum() * 0.0, 0
        v = vectors[torch.from_numpy(known)]
        ent = torch.from_numpy(entities[known])
        if self.settings.in_batch_loss == "infonce":
            return in_batch_info_nce(v, ent, self.settings.temperature), len(known) * (len(known) - 1) // 2
        rows, cols = torch.triu_indices(len(known), len(known), offset=1)
        same = (ent[rows] == ent[cols]).float()
        distance = 1.0 - (v[rows] * v[cols]).sum(dim=-1)
        losses = soft_contrastive_loss(distance, same, self.settings.margin, reduction="none")
        n_pos = same.sum()
        pos = (losses * same).sum() / n_pos.clamp(min=1.0)
        neg = (losses * (1 - same)).sum() / (len(same) - n_pos).clamp(min=1.0)
        return pos + neg, len(same)

    def train_epochs(
        self,
        max_epochs: float,
        max_seconds: Optional[float] = None,
        on_step: Optional[Callable[[StepStats], None]] = None,
        max_steps: Optional[int] = None,
    ) -> List[float]:
        """Train for up to `max_epochs` (fractions allowed) or `max_steps`, whichever is fewer steps.

        max_seconds (Optional[float]): a safety guard, not a budget: training stops when it is reached (the
            caller compares the steps done with the steps asked for and reports it).
        RETURNS (List[float]): the mean loss of each (possibly partial) epoch.
        """
        start = time.monotonic()
        epoch_losses: List[float] = []
        n_batches = max(1, -(-len(self.label) // self.settings.batch_pairs))
        budget = int(max_epochs * n_batches)
        if max_steps is not None:
            budget = min(budget, max_steps)
        done = 0
        while done < budget:
            losses = []
            for batch in self.batches():
                stats = self.step(batch)
                losses.append(stats.loss)
                done += 1
                if on_step is not None:
                    on_step(stats)
                if done >= budget or (max_seconds is not None and time.monotonic() - start >= max_seconds):
                    break
            epoch_losses.append(float(numpy.mean(losses)) if losses else float("nan"))
            if max_seconds is not None and time.monotonic() - start >= max_seconds:
                break
        return epoch_losses


def mine_hard_negatives(
    encoder: Model,
    names: Sequence[str],
    name_entity: numpy.ndarray,
    n_neighbors: int = 10,
    n_trees: int = 20,
    seed: int = 0,
    vectors: Optional[numpy.ndarray] = None,
) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """Algorithm 1, lines 8–12: embed all names, and pair each with its neighbours of another entity.

    names (Sequence[str]): the reference names.
    name_entity (numpy.ndarray): the entity index of each name.
    n_neighbors (int): neighbours inspected per name.
    vectors (Optional[numpy.ndarray]): the names' vectors, if the caller has already encoded them.
    RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): name indices (left, right) of the hard negatives,
        each unordered pair once.
    """
    if vectors is None:
        vectors = encode_names(encoder, list(names))
    # search_k -1 (n_trees × n nodes): the mining searches more widely than a linker
    index = AnnoyNameIndex.build(vectors, n_trees=n_trees, search_k=-1, seed=seed)
    neighbours, _ = index.query(vectors, n_neighbors + 1)
    entity = numpy.asarray(name_entity)
    rows = numpy.repeat(numpy.arange(len(names)), neighbours.shape[1])
    cols = neighbours.ravel()
    keep = (cols >= 0) & (entity[rows] != entity[numpy.clip(cols, 0, None)])
    pairs = numpy.unique(numpy.sort(numpy.stack([rows[keep], cols[keep]], axis=1), axis=1), axis=0)
    return pairs[:, 0], pairs[:, 1]


@dataclass
class RoundResult:
    """What one `hard_negative_round` did.

    losses (List[float]): the loss of every step.
    epoch_losses (List[float]): the mean loss of each (possibly partial) epoch.
    train_seconds (float): wall time of the training part.
    vectors (Optional[numpy.ndarray]): every name's vector after the training (None if not encoded).
    hard_left, hard_right (numpy.ndarray): name rows of the hard negatives added (empty without mining).
    mining_seconds (float): wall time of the mining part.
    """

    losses: List[float]
    epoch_losses: List[float]
    train_seconds: float
    vectors: Optional[numpy.ndarray] = None
    hard_left: numpy.ndarray = field(default_factory=lambda: numpy.zeros(0, numpy.int64))
    hard_right: numpy.ndarray = field(default_factory=lambda: numpy.zeros(0, numpy.int64))
    mining_seconds: float = 0.0


def hard_negative_round(
    trainer: SiameseTrainer,
    names: Sequence[str],
    name_entity: numpy.ndarray,
    *,
    max_epochs: float,
    max_steps: Optional[int] = None,
    max_seconds: Optional[float] = None,
    on_step: Optional[Callable[[StepStats], None]] = None,
    mine: bool = True,
    mine_rows: Optional[numpy.ndarray] = None,
    n_neighbors: int = 10,
    seed: int = 0,
    weight: float = 1.0,
    encode: bool = False,
) -> RoundResult:
    """One round of Algorithm 1: train, then (with `mine`) embed the names and add each one's nearest names of
    another entity to the trainer as label-0 pairs.

    names (Sequence[str]): the reference names; their rows are the trainer's string indices.
    name_entity (numpy.ndarray): the entity index of each name.
    max_epochs, max_steps, max_seconds, on_step: the training part (`SiameseTrainer.train_epochs`).
    mine_rows (Optional[numpy.ndarray]): the name rows mined among (e.g. without held-out names); None: all.
    n_neighbors, seed: `mine_hard_negatives`.
    weight (float): the sampling weight of the added pairs (`SiameseTrainer.add_pairs`).
    encode (bool): embed the names after the training also without mining (`RoundResult.vectors`).
    RETURNS (RoundResult): the losses, the names' vectors and the hard negatives added.
    """
    start = time.monotonic()
    losses: List[float] = []

    def step_done(stats: StepStats) -> None:
        losses.append(stats.loss)
        if on_step is not None:
            on_step(stats)

    epoch_losses = trainer.train_epochs(max_epochs, max_seconds=max_seconds, on_step=step_done, max_steps=max_steps)
    result = RoundResult(losses, epoch_losses, time.monotonic() - start)
    if not (mine or encode):
        return result
    # one encoding of every name serves the mining and the caller (e.g. a dev score)
    result.vectors = encode_names(trainer.encoder, names)
    if mine:
        mined = time.monotonic()
        if mine_rows is None:
            left, right = mine_hard_negatives(
                trainer.encoder, names, name_entity, n_neighbors=n_neighbors, seed=seed, vectors=result.vectors
            )
        else:
            left, right = mine_hard_negatives(
                trainer.encoder,
                [names[i] for i in mine_rows],
                name_entity[mine_rows],
                n_neighbors=n_neighbors,
                seed=seed,
                vectors=result.vectors[mine_rows],
            )
            left, right = mine_rows[left], mine_rows[right]
        trainer.add_pairs(left, right, numpy.zeros(len(left), numpy.float32), weight=weight)
        result.hard_left, result.hard_right = left, right
        result.mining_seconds = time.monotonic() - mined
    return result


def reference_pairs(
    name_entity: numpy.ndarray, negatives_per_positive: float = 1.0, max_positives_per_entity: int = 200, seed: int = 0
) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """The initial semantic set (§3.1) for a small reference set: all same-entity name pairs (capped per
    entity) labelled 1 and random different-entity pairs labelled 0.

    RETURNS (Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]): left, right (name rows) and label.
    """
    rng = random.Random(seed)
    by_entity: Dict[int, List[int]] = {}
    for row, entity in enumerate(numpy.asarray(name_entity).tolist()):
        by_entity.setdefault(entity, []).append(row)
    left: List[int] = []
    right: List[int] = []
    for rows in by_entity.values():
        pairs = [(a, b) for i, a in enumerate(rows) for b in rows[i + 1 :]]
        if len(pairs) > max_positives_per_entity:
            pairs = rng.sample(pairs, max_positives_per_entity)
        for a, b in pairs:
            left.append(a)
            right.append(b)
    n_pos = len(left)
    n_names = len(name_entity)
    n_neg = int(round(n_pos * negatives_per_positive)) if n_pos else n_names
    for _ in range(n_neg if len(by_entity) > 1 else 0):
        while True:
            a, b = rng.randrange(n_names), rng.randrange(n_names)
            if name_entity[a] != name_entity[b]:
                break
        left.append(a)
        right.append(b)
    label = numpy.concatenate([numpy.ones(n_pos, numpy.float32), numpy.zeros(len(left) - n_pos, numpy.float32)])
    return numpy.asarray(left, numpy.int64), numpy.asarray(right, numpy.int64), label


def train_on_reference_set(
    encoder: Model,
    names: Sequence[str],
    name_entity: numpy.ndarray,
    *,
    extra_pairs: Sequence[Tuple[str, str, float]] = (),
    epochs: float = 10,
    max_seconds: Optional[float] = None,
    settings: Optional[TrainingSettings] = None,
) -> List[float]:
    """A minimal trainer for small reference sets (tests, demos): semantic pairs plus `extra_pairs`
    (e.g. syntactic variants with soft labels). Sets the character vocabulary if the encoder has none.

    RETURNS (List[float]): the mean loss of each epoch.
    """
    trainer, _ = names_trainer(encoder, names, name_entity, extra_pairs, settings or TrainingSettings())
    return trainer.train_epochs(epochs, max_seconds=max_seconds)


def names_trainer(
    encoder: Model,
    names: Sequence[str],
    name_entity: numpy.ndarray,
    extra_pairs: Iterable[Tuple[str, str, float]],
    settings: TrainingSettings,
    char_normalization: str = DEFAULT_NORMALIZATION,
) -> Tuple["SiameseTrainer", Dict[str, int]]:
    """A trainer over a reference set's semantic pairs (`reference_pairs`) plus `extra_pairs` of strings, which
    join the string table (entity -1) when they are not names. Sets the character vocabulary (over all strings)
    if the encoder has none.

    char_normalization (str): what a vocabulary set here reads, "nfc" or "fold" (`encoder.vocab`).
    RETURNS (Tuple[SiameseTrainer, Dict[str, int]]): the trainer and its pair counts (`semantic_positive`,
        `semantic_negative`, `extra`).
    """
    from ..encoder.layer import set_char_vocab
    from ..encoder.vocab import CharVocab

    strings = list(names)
    position = {s: i for i, s in enumerate(strings)}
    string_entity = list(numpy.asarray(name_entity).tolist())
    left, right, label = reference_pairs(name_entity, seed=settings.seed)
    extra_left, extra_right, extra_label = [], [], []
    for a, b, y in extra_pairs:
        for s in (a, b):
            if s not in position:
                position[s] = len(strings)
                strings.append(s)
                string_entity.append(-1)
        extra_left.append(position[a])
        extra_right.append(position[b])
        extra_label.append(y)
    if get_char_vocab(encoder) is None:
        set_char_vocab(
            encoder, CharVocab.from_texts(strings, encoder.attrs["encoder_config"]["vocab_size"], char_normalization)
        )
    trainer = SiameseTrainer(
        encoder,
        strings,
        numpy.asarray(string_entity),
        numpy.concatenate([left, numpy.asarray(extra_left, numpy.int64)]),
        numpy.concatenate([right, numpy.asarray(extra_right, numpy.int64)]),
        numpy.concatenate([label, numpy.asarray(extra_label, numpy.float32)]),
        settings,
    )
    counts = {
        "semantic_positive": int(label.sum()),
        "semantic_negative": int(len(label) - label.sum()),
        "extra": len(extra_label),
    }
    return trainer, counts
