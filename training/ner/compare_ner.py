"""One table comparing NER runs on the dev articles: even-numbered (choose), odd-numbered (confirm) and all.

Each run is a directory holding `even/metrics.json` and `odd/metrics.json` (`training.ner.ner_report --documents
even|odd`), optionally `speed.json` (`training.ner.ner_speed`) and `train.json` (its training time: `wall_minutes`,
`cpu_minutes`, `note`). The `all` figures are computed from the two halves' summed counts (the halves partition the
dev articles), so each model tags the dev set once.

    python -m training.ner.compare_ner --run baseline=results/ner_vectors/baseline \\
        --run floret=results/ner_vectors/floret --output results/ner_vectors
"""

import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import typer
from wasabi import msg

from training.common.headline import command_line

from .ner_report import prf

HALVES = ("even", "odd")
# column -> (where in metrics.json, statistic): `views.bioid.<key>` or the consistent ORGANISM view
COLUMNS: Dict[str, Tuple[str, str]] = {
    "ner_f": ("all", "f"),
    "ner_uniprot_routed_f": ("uniprot", "f"),
    "ner_chemical_f": ("CHEMICAL", "f"),
    "ner_organism_recall": ("ORGANISM", "r"),
    "ner_organism_recall_consistent": ("organism_consistent", "r"),
}


def counts(metrics: Dict[str, Any], key: str) -> Dict[str, int]:
    """RETURNS (Dict[str, int]): tp, pred, gold of one score of a ner_report metrics.json."""
    scores = metrics.get("organism_consistent") if key == "organism_consistent" else metrics["views"]["bioid"].get(key)
    if not scores:
        return {"tp": 0, "pred": 0, "gold": 0}
    return {name: int(scores[name]) for name in ("tp", "pred", "gold")}


def run_scores(run_dir: Path) -> Dict[str, Dict[str, float]]:
    """RETURNS (Dict[str, Dict[str, float]]): per half (even, odd, all), each column's value."""
    halves = {}
    for half in HALVES:
        path = run_dir / half / "metrics.json"
        if not path.exists():
            raise FileNotFoundError(f"{path} is missing: run training.ner.ner_report ... {run_dir / half} --documents {half}")
        halves[half] = json.loads(path.read_text(encoding="utf8"))
    out: Dict[str, Dict[str, float]] = {half: {} for half in (*HALVES, "all")}
    for column, (key, stat) in COLUMNS.items():
        summed = {"tp": 0, "pred": 0, "gold": 0}
        for half in HALVES:
            c = counts(halves[half], key)
            out[half][column] = prf(c["tp"], c["pred"], c["gold"])[stat]
            summed = {name: summed[name] + c[name] for name in summed}
        out["all"][column] = prf(summed["tp"], summed["pred"], summed["gold"])[stat]
    return out


def read_optional(path: Path) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): the JSON file's content, or {} when it does not exist."""
    return json.loads(path.read_text(encoding="utf8")) if path.exists() else {}


def shown(value: Any) -> str:
    """RETURNS (str): the value as a table cell ("–" when absent or null)."""
    return "–" if value is None else str(value)


def markdown(rows: Dict[str, Dict[str, Any]], command: str) -> str:
    """RETURNS (str): the table (even / odd / all per score) as Markdown."""
    header = ["run", "NER F", "routed to UniProt F", "CHEMICAL F", "ORGANISM R", "ORGANISM R (consistent view)",
              "captions/s (1 core)", "peak RSS MB", "training min (wall / CPU)"]
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for name, row in rows.items():
        cells = [name]
        for column in COLUMNS:
            cells.append(" / ".join(f"{row['scores'][half][column]:.3f}" for half in (*HALVES, "all")))
        speed, train = row["speed"], row["train"]
        cells += [shown(speed.get("captions_per_s")), shown(speed.get("peak_rss_mb")),
                  f"{shown(train.get('wall_minutes'))} / {shown(train.get('cpu_minutes'))}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join([f"Command: `{command}`", "", "Scores: even-numbered / odd-numbered / all dev articles "
                      "(bioid view, exact spans).", ""] + lines) + "\n"


def main(
    run: List[str] = typer.Option(..., "--run", help="NAME=DIR (DIR/even, DIR/odd with ner_report's metrics.json)"),
    output: Path = typer.Option(..., "--output", help="Writes table.md and table.json here"),
    title: Optional[str] = typer.Option(None, help="A heading for table.md"),
) -> None:
    """Compare NER runs on the even, odd and all dev articles."""
    rows: Dict[str, Dict[str, Any]] = {}
    for item in run:
        name, sep, directory = item.partition("=")
        if not sep or not name or not directory:
            raise typer.BadParameter(f"--run takes NAME=DIR, got {item!r}")
        run_dir = Path(directory)
        rows[name] = {"dir": directory, "scores": run_scores(run_dir), "speed": read_optional(run_dir / "speed.json"),
                      "train": read_optional(run_dir / "train.json")}
    command = command_line("training.ner.compare_ner")
    output.mkdir(parents=True, exist_ok=True)
    (output / "table.json").write_text(json.dumps({"command": command, "runs": rows}, indent=2) + "\n", encoding="utf8")
    text = markdown(rows, command)
    (output / "table.md").write_text((f"# {title}\n\n" if title else "") + text, encoding="utf8")
    msg.good(f"Wrote {output / 'table.md'}")
    print(text)


if __name__ == "__main__":
    typer.run(main)
