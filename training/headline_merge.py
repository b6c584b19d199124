"""Merge keys into `results/headline.json` (one flat JSON object of headline figures).

A small local stand-in for the project's `training/headline.py` (written on another branch): the lead
can replace calls to `merge_headline` with it when merging.
"""
import json
from pathlib import Path
from typing import Any, Dict, Mapping, Union


def merge_headline(path: Union[str, Path], values: Mapping[str, Any]) -> Dict[str, Any]:
    """Merge `values` into the flat JSON object at `path` (created if missing); other keys are kept.

    values (Mapping[str, Any]): key → number or {"value": number, "command": str}.
    RETURNS (Dict[str, Any]): The merged object, as written.
    """
    path = Path(path)
    data: Dict[str, Any] = {}
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf8"))
        except ValueError as e:
            raise ValueError(f"{path} is not valid JSON ({e}); fix or delete it and run again.") from e
        if not isinstance(data, dict):
            raise ValueError(f"{path} must hold one JSON object, not {type(data).__name__}.")
    for key, value in values.items():
        number = value["value"] if isinstance(value, Mapping) else value
        if not isinstance(number, (int, float)) or isinstance(number, bool):
            raise ValueError(f"Headline value of {key!r} must be a number, got {number!r}.")
        data[key] = dict(value) if isinstance(value, Mapping) else value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf8")
    return data
