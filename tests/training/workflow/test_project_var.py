"""Tests of training.workflow.project_var: the workflow's settings as the A/B scripts read them."""
from pathlib import Path

import pytest
from weasel.util import load_project_config

from training.workflow.project_var import project_vars

ROOT = Path(__file__).resolve().parents[3]


def test_values_in_order_as_text() -> None:
    config = {"vars": {"n_trees": 20, "seed": 0, "build_precision": "bf16"}}
    assert project_vars(config, ["seed", "build_precision", "n_trees"]) == ["0", "bf16", "20"]


def test_missing_var_is_named() -> None:
    with pytest.raises(ValueError, match="no var 'n_tres'.*n_trees"):
        project_vars({"vars": {"n_trees": 20}}, ["n_tres"])


def test_a_var_set_is_not_one_value() -> None:
    with pytest.raises(ValueError, match="'demo' is a dict"):
        project_vars({"vars": {"demo": {"n_trees": 2}}}, ["demo"])


def test_the_shipped_project_has_the_build_settings_the_ab_scripts_read() -> None:
    values = project_vars(load_project_config(ROOT), ["n_trees", "seed", "build_precision", "uniprot_short_forms"])
    assert values[0].isdigit() and values[1].isdigit()
    assert values[2] in {"fp32", "bf16", "int8"}
    assert values[3] in {"", "--short-forms"}
