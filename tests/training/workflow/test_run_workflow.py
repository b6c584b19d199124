import re

import pytest
import srsly
from weasel.util import load_project_config

from training.workflow.code_deps import REPO
from training.workflow.run_workflow import lock_path, run_workflow, var_set

DEMO_DIRS = ("corpus/demo/", "training_output/demo/", "packages/demo/")


def test_the_demo_set_only_changes_variables_the_full_run_has():
    config = load_project_config(REPO)
    overrides = var_set(config, "demo")
    assert overrides["vars.mirror_dir"] == "assets/sample"
    assert lock_path(config, "demo") == "training_output/demo/project.lock"


def test_the_demo_runs_the_full_commands_and_writes_only_untracked_paths():
    full = load_project_config(REPO)
    demo = load_project_config(REPO, overrides=var_set(full, "demo"))
    commands = {c["name"]: c for c in demo["commands"]}
    steps = demo["workflows"]["all"] + ["install"]
    assert "python -m training.workflow.run_workflow demo all install" in commands["demo"]["script"]
    for name in steps:
        for output in commands[name].get("outputs", []):
            assert output.startswith(DEMO_DIRS), (name, output)
        for line in commands[name]["script"]:
            assert not re.search(r"(?<![\w/])(results|corpus/sources|training_output/linkers)/", line), (name, line)


def test_a_set_with_an_unknown_variable_or_no_set_is_an_error():
    config = {"vars": {"out": "a", "training_dir": "t", "demo": {"out": "b", "typo": 1, "training_dir": "t/demo"}}}
    with pytest.raises(ValueError, match="typo"):
        var_set(config, "demo")
    with pytest.raises(ValueError, match="no var set"):
        var_set(config, "small")
    with pytest.raises(ValueError, match="training_dir of its own"):
        lock_path({"vars": {"training_dir": "t", "demo": {}}}, "demo")


PROJECT = """vars:
  out: "full"
  training_dir: "full"
  demo:
    out: "small"
    training_dir: "small"
commands:
  - name: make
    script:
      - "python -c \\"import pathlib; p = pathlib.Path('${vars.out}'); p.mkdir(exist_ok=True); (p / 'x.txt').write_text('${vars.out}')\\""
    outputs:
      - "${vars.out}/x.txt"
workflows:
  all:
    - make
"""


def test_a_set_runs_through_weasel_with_its_own_lock_file(tmp_path, monkeypatch):
    (tmp_path / "project.yml").write_text(PROJECT, encoding="utf8")
    monkeypatch.chdir(tmp_path)
    run_workflow("demo", ["all"], force=False, dry=False)
    assert (tmp_path / "small/x.txt").read_text() == "small"
    assert not (tmp_path / "full").exists() and not (tmp_path / "project.lock").exists()
    lock = srsly.read_yaml(tmp_path / "small/project.lock")
    assert lock["make"]["outs"][0]["path"] == "small/x.txt"
