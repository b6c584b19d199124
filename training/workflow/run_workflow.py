"""Run project.yml workflows and commands with another of its var sets: how the demo reuses the full run's commands.

    python -m training.workflow.run_workflow demo all install     # what `spacy project run demo` does first
    python -m training.workflow.run_workflow demo train-ner       # one step of the demo

`project.yml`'s `vars` are the full run's; `vars.<name>` (here `vars.demo`) holds another value for some of them
(the demo's paths under corpus/demo and training_output/demo, small encoders, a short NER). The named workflows
and commands run through weasel's own runner, exactly as `spacy project run STEP . --vars.KEY VALUE ...` would run
them (deps, outputs, skipping of unchanged steps), with their state in a lock file of their own
(`<training_dir of the set>/project.lock`): the demo's runs do not make the full run's steps look changed, since
weasel keys its lock entries by command name.
"""
from pathlib import Path
from typing import Any, Dict, List
from unittest import mock

import typer
from wasabi import msg

LOCK_NAME = "project.lock"


def var_set(config: Dict[str, Any], name: str) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): weasel overrides (`{"vars.results_dir": ...}`) for the values of `vars.<name>`.
    Raises ValueError when the set is missing or names a variable the full run does not have (a typo)."""
    values = config.get("vars", {}).get(name)
    if not isinstance(values, dict):
        raise ValueError(f"project.yml has no var set vars.{name}")
    unknown = sorted(key for key in values if key not in config["vars"])
    if unknown:
        raise ValueError(f"vars.{name} sets variables that project.yml's vars do not define: {', '.join(unknown)}")
    return {f"vars.{key}": value for key, value in values.items()}


def lock_path(config: Dict[str, Any], name: str) -> str:
    """RETURNS (str): the set's own weasel lock file, in its training directory (relative to the project)."""
    training_dir = config["vars"][name].get("training_dir")
    if not training_dir or training_dir == config["vars"].get("training_dir"):
        raise ValueError(f"vars.{name} needs a training_dir of its own (its weasel lock file goes there)")
    return f"{training_dir}/{LOCK_NAME}"


def run_workflow(
    name: str = typer.Argument(..., help="The var set: a mapping under project.yml's vars (e.g. demo)"),
    steps: List[str] = typer.Argument(..., help="Workflows and commands of project.yml, run in order"),
    force: bool = typer.Option(False, "--force", "-F", help="Rerun steps even if nothing changed"),
    dry: bool = typer.Option(False, "--dry", "-D", help="Print the commands without running them"),
) -> None:
    """Run project.yml workflows and commands with the values of vars.<name> in place of the full run's."""
    from weasel.cli import run as weasel_run
    from weasel.util import load_project_config

    project_dir = Path.cwd()
    config = load_project_config(project_dir)
    try:
        overrides = var_set(config, name)
        lock = lock_path(config, name)
    except ValueError as err:
        msg.fail(str(err), exits=1)
    if not hasattr(weasel_run, "PROJECT_LOCK"):
        msg.fail("this weasel version keeps its lock file elsewhere: training/workflow/run_workflow.py needs an update", exits=1)
    (project_dir / lock).parent.mkdir(parents=True, exist_ok=True)
    msg.info(f"Running {' '.join(steps)} with vars.{name} ({len(overrides)} values), state in {lock}")
    with mock.patch.object(weasel_run, "PROJECT_LOCK", lock):
        for step in steps:
            weasel_run.project_run(project_dir, step, overrides=overrides, force=force, dry=dry)


if __name__ == "__main__":
    typer.run(run_workflow)
