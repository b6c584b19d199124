"""The project's headline figures: one flat JSON object in `results/headline.json`.

Each key is written by the evaluation or benchmark command that measured it, never by hand:

    {"e2e_precision": {"value": 0.19, "command": "python -m training.evaluation.evaluate_pipeline ..."}, ...}

`update_headline` merges new keys into the file (other keys are kept) and replaces it atomically, so a
reader never sees a half-written file and two commands writing different keys don't lose each other's
figures (the last writer of a key wins).
"""
import json
import math
import os
import sys
import tempfile
from pathlib import Path
from typing import Dict, Mapping, Optional, Sequence, Union

Number = Union[int, float]
Entry = Dict[str, Union[Number, str]]


class HeadlineError(ValueError):
    """`results/headline.json` is unreadable or not one flat JSON object of figures."""


def command_line(module: str, argv: Optional[Sequence[str]] = None) -> str:
    """The command that produced a figure, as a user would type it.

    module (str): The module run with `python -m`, e.g. "training.evaluation.evaluate_pipeline".
    argv (Optional[Sequence[str]]): The arguments (default: `sys.argv[1:]`).
    RETURNS (str): e.g. "python -m training.evaluation.evaluate_pipeline training_output/pipeline ...".
    """
    args = list(sys.argv[1:] if argv is None else argv)
    return " ".join(["python -m", module] + args)


def read_headline(path: Union[str, Path]) -> Dict[str, object]:
    """Read the headline file; a missing file is an empty object.

    RETURNS (Dict[str, object]): key -> number or {"value": number, "command": str}.
    """
    path = Path(path)
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise HeadlineError(f"{path} is not valid JSON ({e}); restore it from git or delete it and "
                            f"rerun the evaluation and benchmark commands that write it.") from e
    if not isinstance(data, dict):
        raise HeadlineError(f"{path} must hold one flat JSON object, found {type(data).__name__}; "
                            f"restore it from git or delete it and rerun the commands that write it.")
    return data


def _entry(key: str, value: Number, command: str) -> Entry:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise HeadlineError(f"headline figure {key!r} must be a finite number, got {value!r}")
    if not command.strip():
        raise HeadlineError(f"headline figure {key!r} needs the command line that produced it")
    return {"value": value, "command": command}


def update_headline(path: Union[str, Path], values: Mapping[str, Number], command: str) -> Dict[str, object]:
    """Merge figures into the headline file (atomic replace; other keys kept).

    path (Union[str, Path]): The headline file, e.g. `results/headline.json` (created if missing).
    values (Mapping[str, Number]): key -> figure.
    command (str): The command line that produced the figures.
    RETURNS (Dict[str, object]): The whole object as written.
    """
    path = Path(path)
    data = read_headline(path)
    for key, value in values.items():
        if not key or not isinstance(key, str):
            raise HeadlineError(f"headline keys must be non-empty strings, got {key!r}")
        data[key] = _entry(key, value, command)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf8") as f:
            f.write(json.dumps(dict(sorted(data.items())), indent=2) + "\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return data
