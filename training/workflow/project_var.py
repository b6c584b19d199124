"""Print project.yml vars, so that scripts outside the workflow build with the workflow's settings.

    python -m training.workflow.project_var n_trees              # 20
    python -m training.workflow.project_var seed build_precision # one value per line

Values come from weasel's own loading of project.yml (the full run's `vars`, not a var set such as `vars.demo`).
"""
from pathlib import Path
from typing import Any, Dict, List

import typer
from wasabi import msg


def project_vars(config: Dict[str, Any], names: List[str]) -> List[str]:
    """RETURNS (List[str]): each named var of the full run as text, in order (a list, mapping or missing var
    raises ValueError naming it and the vars there are)."""
    variables = config.get("vars", {})
    values = []
    for name in names:
        if name not in variables:
            raise ValueError(f"project.yml has no var {name!r}; its vars: {', '.join(sorted(variables))}")
        value = variables[name]
        if isinstance(value, (dict, list)):
            raise ValueError(f"project.yml's var {name!r} is a {type(value).__name__}, not one value")
        values.append(str(value))
    return values


def main(
    names: List[str] = typer.Argument(..., help="Names of project.yml vars"),
    project_dir: Path = typer.Option(Path("."), help="The project directory (holding project.yml)"),
) -> None:
    """Print the named project.yml vars, one per line."""
    from weasel.util import load_project_config

    try:
        print("\n".join(project_vars(load_project_config(project_dir), names)))
    except ValueError as err:
        msg.fail(str(err), exits=1)


if __name__ == "__main__":
    typer.run(main)
