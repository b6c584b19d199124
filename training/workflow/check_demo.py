"""Did the demo reproduce? Compare its figures with the committed expected ones, within stated tolerances.

    python -m training.workflow.check_demo results/demo/expected.json training_output/demo/results

The expected file lists figures as dotted paths into a JSON file of the demo's results directory, each
with its value and an absolute tolerance, e.g. `"pipeline/metrics.json:end_to_end.all.f": {"value": 0.469,
"tolerance": 0.0}`. Prints one line per figure and a final `REPRODUCED` or `NOT REPRODUCED` line; exits 1
only with `--strict` (the demo itself reports, a test may insist). `--write` replaces the expected values
with this run's (tolerances and note kept): for a maintainer, after a change that moves the demo's figures.
"""
import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

import typer

from training.common.data_errors import DataFileError, run_cli


def lookup(data: Any, dotted: str) -> Any:
    """RETURNS: the value at a dotted path (`end_to_end.all.f`) of nested dicts; KeyError if absent."""
    for key in dotted.split("."):
        data = data[key]
    return data


def compare(expected: Dict[str, Dict[str, float]], results_dir: Path) -> List[Tuple[str, float, Any, float, bool]]:
    """RETURNS: (figure, expected value, measured value or None, tolerance, within tolerance) per figure."""
    rows = []
    cache: Dict[str, Any] = {}
    for figure, spec in expected.items():
        file_name, _, dotted = figure.partition(":")
        path = results_dir / file_name
        if file_name not in cache:
            if not path.exists():
                raise DataFileError(path, "demo result file not found", "Run the demo (bash scripts/demo.sh) first.")
            cache[file_name] = json.loads(path.read_text(encoding="utf8"))
        try:
            measured = float(lookup(cache[file_name], dotted))
        except (KeyError, TypeError, ValueError):
            measured = None
        value, tolerance = float(spec["value"]), float(spec["tolerance"])
        ok = measured is not None and abs(measured - value) <= tolerance + 1e-9
        rows.append((figure, value, measured, tolerance, ok))
    return rows


def check_demo(
    expected_path: Path = typer.Argument(..., help="Committed expected figures (JSON)"),
    results_dir: Path = typer.Argument(..., help="The demo's results directory"),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 when a figure is outside its tolerance"),
    write: bool = typer.Option(False, "--write", help="Store this run's values as the expected ones (tolerances kept)"),
) -> None:
    """Print whether the demo run reproduced the committed figures."""
    if not expected_path.exists():
        raise DataFileError(expected_path, "expected figures file not found", "Restore it from git.")
    spec = json.loads(expected_path.read_text(encoding="utf8"))
    rows = compare(spec["figures"], results_dir)
    if write:
        for figure, _, measured, _, _ in rows:
            if measured is None:
                raise DataFileError(results_dir, f"has no value for {figure}", "Run the whole demo first.")
            spec["figures"][figure]["value"] = round(measured, 4)
        expected_path.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf8")
        print(f"wrote this run's {len(rows)} figures to {expected_path}")
        return
    for figure, value, measured, tolerance, ok in rows:
        shown = "missing" if measured is None else f"{measured:.4f}"
        print(f"  {'ok ' if ok else 'OFF'} {figure:58} {shown:>8} (expected {value:.4f} ± {tolerance:g})")
    off = [r for r in rows if not r[4]]
    if off:
        print(f"NOT REPRODUCED: {len(off)} of {len(rows)} figures outside their tolerance ({spec.get('note', '')})")
    else:
        print(f"REPRODUCED: all {len(rows)} figures within their tolerance of {expected_path}")
    if off and strict:
        raise typer.Exit(1)


if __name__ == "__main__":
    run_cli(check_demo)
