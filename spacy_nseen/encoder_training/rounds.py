"""The rounds of Algorithm 1 under a step budget: the training loop of both encoder trainers, the
`train-encoder` command (`encoder_training.names`, a names file) and the project's
`training.encoder.train_encoder` (a pair store, with a dev score, checkpoints and a time guard).

Each round trains for its share of the step budget (`round_step_budget`), then, in every round but the last,
mines each name's nearest names of another entity as label-0 pairs (`siamese.hard_negative_round`).
"""

import time
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence

import numpy

from .siamese import RoundResult, SiameseTrainer, StepStats, hard_negative_round


def round_step_budget(max_steps: int, rounds: int, round_no: int, first_share: Optional[float] = None) -> Optional[int]:
    """Steps of one round under a total budget of `max_steps` (None: no step budget).

    first_share (Optional[float]): the first round's share of the steps, the others sharing the rest equally;
        None: every round gets an equal share. The shares of all rounds add up to `max_steps` exactly.
    """
    if max_steps <= 0:
        return None
    if first_share is None:
        share, extra = divmod(max_steps, rounds)
        return share + (1 if round_no < extra else 0)
    first = max_steps if rounds == 1 else int(round(max_steps * first_share))
    if round_no == 0:
        return first
    share, extra = divmod(max_steps - first, rounds - 1)
    return share + (1 if round_no - 1 < extra else 0)


@dataclass
class RoundReport:
    """One round of `train_in_rounds`, as its `on_round_end` sees it.

    round_no (int): the round, from 0.
    step_budget (Optional[int]): its share of the step budget (None: no budget).
    result (RoundResult): its losses, the names' vectors (when encoded) and the hard negatives it added.
    cut_short (bool): the time guard stopped its training before the step budget.
    seconds (float): the time spent by all rounds so far (those before `start_round` included).
    """

    round_no: int
    step_budget: Optional[int]
    result: RoundResult
    cut_short: bool
    seconds: float


@dataclass
class RoundsDone:
    """What `train_in_rounds` did.

    rounds (List[RoundReport]): the rounds run, in order.
    cut_short (bool): the time guard stopped the training (within a round, or before one).
    stopped_before (Optional[int]): the round (from 0) the guard stopped before it started, or None.
    seconds (float): the time spent by all rounds (those before `start_round` included).
    """

    rounds: List[RoundReport]
    cut_short: bool
    stopped_before: Optional[int]
    seconds: float


def train_in_rounds(
    trainer: SiameseTrainer,
    names: Sequence[str],
    name_entity: numpy.ndarray,
    *,
    rounds: int,
    max_steps: int,
    first_share: Optional[float] = None,
    epochs_per_round: Optional[float] = None,
    max_seconds: Optional[float] = None,
    start_round: int = 0,
    seconds_done: float = 0.0,
    mine: bool = True,
    mine_rows: Optional[numpy.ndarray] = None,
    n_neighbors: int = 5,
    seed: int = 0,
    hard_negative_weight: float = 1.0,
    encode: bool = False,
    on_round_start: Optional[Callable[[int, Optional[int]], None]] = None,
    on_step: Optional[Callable[[StepStats], None]] = None,
    on_round_end: Optional[Callable[[RoundReport], None]] = None,
) -> RoundsDone:
    """Train in rounds `start_round` .. `rounds - 1`, mining hard negatives after each but the last.

    rounds, max_steps, first_share: the rounds and their step budgets (`round_step_budget`; 0 steps: no budget).
    epochs_per_round (Optional[float]): epochs over the pairs per round; None: the step budget alone decides.
    max_seconds (Optional[float]): a time guard over all rounds (None: none); `seconds_done` of it are spent.
    mine (bool): mine hard negatives after each round but the last. mine_rows, n_neighbors, seed,
        hard_negative_weight: the mining (`siamese.hard_negative_round`).
    encode (bool): embed the names after every round, also the last (`RoundResult.vectors`, e.g. a dev score).
    on_round_start, on_step, on_round_end: called with (round_no, step_budget), each step's stats and each
        round's `RoundReport` (e.g. a progress bar, a log, a checkpoint).
    RETURNS (RoundsDone): the rounds and whether the guard cut the training short.
    """
    if rounds < 1:
        raise ValueError(f"rounds must be positive, got {rounds}")
    if epochs_per_round is None and max_steps <= 0:
        raise ValueError("give epochs_per_round, max_steps or both")
    done = RoundsDone([], False, None, seconds_done)
    for round_no in range(start_round, rounds):
        steps = round_step_budget(max_steps, rounds, round_no, first_share)
        guard = None if max_seconds is None else max_seconds - done.seconds
        if guard is not None and guard <= 0:
            done.cut_short, done.stopped_before = True, round_no
            break
        started = time.monotonic()
        if on_round_start is not None:
            on_round_start(round_no, steps)
        # without an epoch limit, up to `steps` epochs of at least one batch each: the round takes `steps` steps
        if steps is None and epochs_per_round is None:
            raise ValueError("train_in_rounds: give max_steps or epochs_per_round (neither bounds a round)")
        max_epochs = epochs_per_round if epochs_per_round is not None else float(steps or 0)
        result = hard_negative_round(
            trainer,
            names,
            name_entity,
            max_epochs=max_epochs,
            max_steps=steps,
            max_seconds=guard,
            on_step=on_step,
            mine=mine and round_no < rounds - 1,
            mine_rows=mine_rows,
            n_neighbors=n_neighbors,
            seed=seed,
            weight=hard_negative_weight,
            encode=encode,
        )
        guard_hit = guard is not None and result.train_seconds >= guard
        done.cut_short = done.cut_short or guard_hit
        done.seconds += time.monotonic() - started
        report = RoundReport(round_no, steps, result, guard_hit, done.seconds)
        done.rounds.append(report)
        if on_round_end is not None:
            on_round_end(report)
    return done
