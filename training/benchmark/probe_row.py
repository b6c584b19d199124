"""One markdown table row of a `benchmark_probe` run, for the A/B scripts in `scripts/`:

    python -m training.benchmark.probe_row PROBE_OUTPUT LABEL... [--resident SUFFIX ...]

PROBE_OUTPUT is the probe's output (its last line is the JSON object; `-` reads standard input). The row is the
labels, then the run seconds, peak RSS (VmHWM), RssFile and RssAnon in MB, and with `--resident` the resident MB of
the mapped pipeline files whose names end with one of the suffixes (the probe's `--mappings`).
"""
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Sequence


def probe_row(run: Dict[str, Any], labels: Sequence[str], resident: Sequence[str] = ()) -> str:
    """RETURNS (str): the markdown row of one probe run (`run`: the probe's JSON object, with --texts)."""
    memory = run["memory_after_run"]
    cells = [*labels, run["run_seconds"], memory["VmHWM"], memory["RssFile"], memory["RssAnon"]]
    if resident:
        files = run["resident_files_mb"]
        cells.append(f"{sum(mb for name, mb in files.items() if name.endswith(tuple(resident))):.1f}")
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def main(argv: List[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("probe_output", help="the probe's output (last line: JSON), or - for standard input")
    parser.add_argument("labels", nargs="*", help="the row's first cells")
    parser.add_argument("--resident", action="append", default=[], help="add the resident MB of files ending so")
    args = parser.parse_args(argv)
    text = sys.stdin.read() if args.probe_output == "-" else Path(args.probe_output).read_text(encoding="utf8")
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        parser.error(f"{args.probe_output}: no probe output")
    run = json.loads(lines[-1])
    if args.resident and "resident_files_mb" not in run:
        parser.error(f"{args.probe_output}: no resident files: run the probe with --mappings")
    print(probe_row(run, args.labels, args.resident))


if __name__ == "__main__":
    main(sys.argv[1:])
