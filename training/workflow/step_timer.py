"""Run one command of a project step and record its wall time in a JSON file.

    python -m training.workflow.step_timer train-ner results/step_times.json -- python -m spacy train ...

`project.yml` wraps each script line with it (one step name per line), so `results/step_times.json` (or
`training_output/demo/results/step_times.json`) holds each step's seconds, start time, command and exit code, plus
`_total_seconds`; re-running a step replaces its entry. A failing command is recorded, then its exit code is passed on.
`--log FILE` sends the command's output to FILE instead of the console (e.g. the setuptools file lists of
`spacy package`); if the command fails, the last lines of FILE are printed.
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import typer
from wasabi import msg

app = typer.Typer(add_completion=False)


def record(times_path: Path, step: str, command: List[str], seconds: float, returncode: int, started: str) -> None:
    """Store one command's timing under `step` (a re-run replaces the entry) and update the total."""
    times_path.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(times_path.read_text(encoding="utf8")) if times_path.exists() else {}
    data.pop("_total_seconds", None)
    data[step] = {"seconds": round(seconds, 2), "ok": returncode == 0, "returncode": returncode,
                  "started": started, "command": " ".join(command)}
    data["_total_seconds"] = round(sum(v["seconds"] for v in data.values()), 2)
    tmp = times_path.with_name(times_path.name + ".part")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf8")
    os.replace(tmp, times_path)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def step_timer(
    ctx: typer.Context,
    step: str = typer.Argument(..., help="Step name (the project command)"),
    times_path: Path = typer.Argument(..., help="JSON file of step times (created or updated)"),
    log: Path = typer.Option(None, "--log", help="Write the command's output to this file instead of the console"),
) -> None:
    """Run the command after `--` and record its wall time under STEP in TIMES_PATH."""
    command = [a for a in ctx.args]
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        raise typer.BadParameter("give the command to run after --")
    if command[0] in ("python", "python3"):
        command[0] = sys.executable  # the interpreter that runs the project, as spaCy does for `python`
    started = time.strftime("%Y-%m-%dT%H:%M:%S")
    t0 = time.perf_counter()
    # scripts (e.g. scripts/check_wheel.sh) find the project's interpreter here
    env = {**os.environ, "NSEEN_PYTHON": sys.executable}
    if log is None:
        returncode = subprocess.call(command, env=env)
    else:
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("w", encoding="utf8") as file_:
            returncode = subprocess.call(command, env=env, stdout=file_, stderr=subprocess.STDOUT)
        if returncode != 0:
            sys.stdout.write("".join(log.read_text(encoding="utf8", errors="replace").splitlines(keepends=True)[-40:]))
    seconds = time.perf_counter() - t0
    record(times_path, step, command, seconds, returncode, started)
    where = f", output in {log}" if log is not None else ""
    (msg.good if returncode == 0 else msg.fail)(f"{step}: {seconds:.1f}s (exit code {returncode}{where})")
    sys.exit(returncode)


if __name__ == "__main__":
    app()
