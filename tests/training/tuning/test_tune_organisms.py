"""The organism tuner's search and objective."""
from dataclasses import replace

from spacy_nseen.organisms.assign import AssignerSettings
from training.tuning.tune_organisms import GRID, coordinate_search, objective_value


def results(covered_accuracy: float, other_outside: float, covered: int = 80, other: int = 20):
    return {"organism_accuracy": covered_accuracy, "other_predicted_outside_covered": other_outside,
            "counts": {"covered": covered, "other": other}}


def test_objective_counts_other_organisms_assigned_outside_the_covered_set():
    assert objective_value(results(0.9, 0.5), "covered") == 0.9
    assert objective_value(results(0.9, 0.5), "all") == round((72 + 10) / 100, 4)
    # a setting that wins on covered mentions by pulling other organisms into them loses on all mentions
    assert objective_value(results(0.91, 0.3), "covered") > objective_value(results(0.9, 0.5), "covered")
    assert objective_value(results(0.91, 0.3), "all") < objective_value(results(0.9, 0.5), "all")
    assert objective_value({"organism_accuracy": 0.0, "other_predicted_outside_covered": 0.0,
                            "counts": {"covered": 0, "other": 0}}, "all") == 0.0


def test_coordinate_search_keeps_the_defaults_unless_beaten_and_finds_a_better_value():
    start = AssignerSettings()
    best, runs = coordinate_search(lambda s: 1.0, start, passes=1)
    assert best == start and runs[0]["objective"] == 1.0
    target = GRID["figure_weight"][-1]
    best, _ = coordinate_search(lambda s: float(s.figure_weight == target), start, passes=1)
    assert best == replace(start, figure_weight=target)
