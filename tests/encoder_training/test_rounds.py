from typing import List, Optional

import numpy
import pytest

from spacy_nseen.encoder.layer import build_char_bilstm_encoder
from spacy_nseen.encoder_training.rounds import RoundReport, round_step_budget, train_in_rounds
from spacy_nseen.encoder_training.siamese import TrainingSettings, names_trainer

NAMES = ["FOXP2", "Forkhead box protein P2", "IKBKE", "IKK-epsilon", "PLCG2", "Phospholipase C-gamma-2"]
NAME_ENTITY = numpy.asarray([0, 0, 1, 1, 2, 2])


@pytest.mark.parametrize("max_steps,rounds,first_share,expected", [
    (10, 3, None, [4, 3, 3]),
    (1000, 2, None, [500, 500]),
    (30, 3, 0.4, [12, 9, 9]),
    (2000, 3, 0.4, [800, 600, 600]),
    (7, 1, 1.0, [7]),
])
def test_round_budgets_add_up_to_the_step_budget(max_steps: int, rounds: int, first_share: Optional[float],
                                                 expected: List[int]):
    budgets = [round_step_budget(max_steps, rounds, r, first_share) for r in range(rounds)]
    assert budgets == expected and sum(budgets) == max_steps
    assert round_step_budget(0, rounds, 0, first_share) is None


def trainer():
    encoder = build_char_bilstm_encoder(vocab_size=160, char_width=8, hidden_width=8, depth=1, output_width=8)
    return names_trainer(encoder, NAMES, NAME_ENTITY, [], TrainingSettings(batch_pairs=4))[0]


def test_each_round_takes_its_budget_and_all_but_the_last_mine():
    events = []
    done = train_in_rounds(trainer(), NAMES, NAME_ENTITY, rounds=3, max_steps=10, n_neighbors=2,
                           on_round_start=lambda r, steps: events.append(("start", r, steps)),
                           on_round_end=lambda report: events.append(("end", report.round_no, len(report.result.losses))))
    assert events == [("start", 0, 4), ("end", 0, 4), ("start", 1, 3), ("end", 1, 3), ("start", 2, 3), ("end", 2, 3)]
    assert [len(r.result.hard_left) > 0 for r in done.rounds] == [True, True, False]
    assert not done.cut_short and done.stopped_before is None
    assert done.rounds[-1].seconds == done.seconds > 0


def test_a_resumed_run_starts_at_its_round_and_the_guard_stops_before_a_round():
    reports: List[RoundReport] = []
    done = train_in_rounds(trainer(), NAMES, NAME_ENTITY, rounds=3, max_steps=10, start_round=2, seconds_done=5.0,
                           encode=True, on_round_end=reports.append)
    assert [r.round_no for r in reports] == [2] and reports[0].step_budget == 3 and reports[0].result.vectors is not None
    assert done.seconds > 5.0
    spent = train_in_rounds(trainer(), NAMES, NAME_ENTITY, rounds=3, max_steps=10, max_seconds=5.0, seconds_done=5.0)
    assert spent.rounds == [] and spent.cut_short and spent.stopped_before == 0
    with pytest.raises(ValueError):
        train_in_rounds(trainer(), NAMES, NAME_ENTITY, rounds=2, max_steps=0)
