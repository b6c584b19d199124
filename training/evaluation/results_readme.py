"""Write `results/README.md`: the headline figures, each linked to the results file of the command that wrote it.

    python -m training.evaluation.results_readme            # writes results/README.md
    python -m training.evaluation.results_readme --check    # exits 1 when the committed page is stale

The page is built from `results/headline.json` (one entry per figure: its value and the command that wrote it)
and the results files those commands write: a command's `--output`/`--out` path, or its first positional
`results/...` argument. A directory links to its `metrics.md` (else its `README.md`, else `<directory name>.md`),
a `.json` file to the `.md` beside it. A figure whose results file does not exist is an error.
"""
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import typer

from training.common.headline import read_headline

app = typer.Typer(add_completion=False)

OUTPUT_OPTIONS = ("--output", "--out")
# Commands that write their results without naming the path: the command's default output.
DEFAULT_OUTPUTS: Dict[str, str] = {"training.benchmark.benchmark_scale": "results/scale"}
# key → (group, what the figure is, unit). A key missing here is listed under "Other" by its own name.
FIGURES: Dict[str, Tuple[str, str, str]] = {
    "e2e_f": ("End to end (NER + linker, 57 dev articles)", "F, all linked entities", "share"),
    "e2e_precision": ("End to end (NER + linker, 57 dev articles)", "precision, all linked entities", "share"),
    "uniprot_all_gold_linking_only": ("End to end (NER + linker, 57 dev articles)",
                                      "UniProt links right on gold spans (out-of-KB as misses)", "share"),
    "uniprot_other_organisms_recall": ("End to end (NER + linker, 57 dev articles)",
                                       "UniProt links right on gold spans of organisms outside the five", "share"),
    "uniprot_gold_organism_accuracy": ("End to end (NER + linker, 57 dev articles)",
                                       "organism of the UniProt link right, gold spans", "share"),
    "nil_unlinked_share": ("End to end (NER + linker, 57 dev articles)",
                           "un-normalised protein/gene mentions left unlinked", "share"),
    "uniprot_human_hgnc_hits1": ("Linking on gold mentions (Bio-ID training release)",
                                 "Hits@1, UniProt human + HGNC names", "share"),
    "uniprot_multi_organism_hits1": ("Linking on gold mentions (Bio-ID training release)",
                                     "Hits@1, UniProt 5 organisms, with organism assignment", "share"),
    "uniprot_model_organisms_hits1": ("Linking on gold mentions (Bio-ID training release)",
                                      "Hits@1, UniProt model organisms (every organism of the set)", "share"),
    "chebi_hits1": ("Linking on gold mentions (Bio-ID training release)",
                    "Hits@1, ChEBI, with the abbreviation lexicon", "share"),
    "chebi_hits1_article_abbreviations": ("Linking on gold mentions (Bio-ID training release)",
                                          "Hits@1, ChEBI, with the article's abbreviations and the lexicon", "share"),
    "chebi_hits1_no_lexicon": ("Linking on gold mentions (Bio-ID training release)",
                               "Hits@1, ChEBI, linker alone", "share"),
    "uniprot_dense_hits1": ("Linking on gold mentions (Bio-ID training release)",
                            "Hits@1, UniProt paper's names, dense retrieval only", "share"),
    "chebi_dense_hits1": ("Linking on gold mentions (Bio-ID training release)",
                          "Hits@1, ChEBI, dense retrieval only", "share"),
    "uniprot_hybrid_hits1_seed_spread": ("Linking on gold mentions (Bio-ID training release)",
                                         "spread of UniProt Hits@1 over three training seeds", "share"),
    "organism_accuracy": ("Organisms and NIL", "organism assignment accuracy, gold UniProt spans", "share"),
    "organism_accuracy_all_taxa": ("Organisms and NIL",
                                   "organism assignment accuracy, every taxon of the set, gold UniProt spans", "share"),
    "kb_score_ece": ("Organisms and NIL", "calibration error of `kb_score` (ECE, odd documents)", "share"),
    "ner_f": ("NER (57 dev articles, exact spans)", "F, all labels", "share"),
    "ner_uniprot_routed_f": ("NER (57 dev articles, exact spans)", "F, spans routed to UniProt", "share"),
    "ner_chemical_f": ("NER (57 dev articles, exact spans)", "F, CHEMICAL", "share"),
    "ner_organism_recall": ("NER (57 dev articles, exact spans)", "recall, ORGANISM", "share"),
    "ner_captions_per_s": ("Speed and memory", "NER alone, captions/s", "rate"),
    "ner_peak_rss_mb": ("Speed and memory", "NER alone, peak RSS", "mb"),
    "pipeline_peak_rss_mb": ("Speed and memory", "full pipeline, peak RSS", "mb"),
    "scale_two_process_speedup": ("Speed and memory", "speed-up of 2 processes over 1 (`annotate --n-process 2`)",
                                  "ratio"),
    "synonym_auc_gain": ("Synonym discovery", "AUC gain of string + context over string only, held-out UniProt "
                         "entities' pairs", "share"),
    "synonym_missing_hits1_gain": ("Synonym discovery", "Hits@1 gain of discovery over the string-only linker, "
                                   "Bio-ID missing synonyms (UniProt, dev articles)", "share"),
    "synonym_added_names_precision": ("Synonym discovery", "precision of auto-added names (odd documents)", "share"),
    "synonym_linking_only_gain": ("Synonym discovery", "linking-only Hits@1 gain from auto-added names (odd "
                                  "documents, UniProt + ChEBI)", "share"),
}
GROUPS: List[str] = list(dict.fromkeys(group for group, _, _ in FIGURES.values())) + ["Other"]


@dataclass(frozen=True)
class Figure:
    """One headline figure: its key, value, the command that wrote it and the results file it links to."""

    key: str
    value: float
    command: str
    results_file: str


def results_path(command: str) -> Optional[str]:
    """RETURNS (Optional[str]): the `results/...` path a command writes, or None when it names none."""
    args = shlex.split(command)
    for i, arg in enumerate(args[:-1]):
        if arg in OUTPUT_OPTIONS and args[i + 1].startswith("results/"):
            return args[i + 1]
    for i, arg in enumerate(args):
        previous = args[i - 1] if i else ""
        if arg.startswith("results/") and arg != "results/headline.json" and not previous.startswith("--"):
            return arg
    module = args[2] if len(args) > 2 and args[:2] == ["python", "-m"] else ""
    return DEFAULT_OUTPUTS.get(module)


def results_file(path: str, root: Path) -> str:
    """RETURNS (str): the readable results file (relative to `root`) for a command's output path.

    Raises ValueError when no such file exists.
    """
    target = root / path
    if target.is_dir():
        candidates = [target / "metrics.md", target / "README.md", target / f"{target.name}.md"]
    else:
        candidates = [target.with_suffix(".md"), target]
    for candidate in candidates:
        if candidate.is_file():
            return candidate.relative_to(root).as_posix()
    raise ValueError(f"no results file for {path!r} under {root} (looked for {', '.join(c.name for c in candidates)})")


def read_figures(headline: Path, root: Path) -> List[Figure]:
    """RETURNS (List[Figure]): every figure of the headline file, in key order, with its results file."""
    figures = []
    for key, entry in sorted(read_headline(headline).items()):
        if not isinstance(entry, dict) or "value" not in entry:
            raise ValueError(f"{headline}: {key!r} has no value")
        command = str(entry.get("command", ""))
        path = results_path(command)
        if path is None:
            raise ValueError(f"{headline}: the command of {key!r} names no results/ output: {command}")
        figures.append(Figure(key, float(entry["value"]), command, results_file(path, root)))
    return figures


def format_value(value: float, unit: str) -> str:
    """RETURNS (str): the value as the page shows it (shares to 3 decimals, MB and rates as whole numbers)."""
    if unit == "mb":
        return f"{value:,.0f} MB"
    if unit == "rate":
        return f"{value:,.0f}"
    if unit == "ratio":
        return f"{value:.2f}×"
    return f"{value:.3f}"


def render(figures: Sequence[Figure], headline_name: str = "headline.json") -> str:
    """RETURNS (str): the Markdown page, links relative to the `results/` directory."""
    lines = [
        "# Results",
        "",
        "<!-- Generated by `python -m training.evaluation.results_readme` from headline.json: do not edit. -->",
        "",
        f"The headline figures of the last full run (`spacy project run all`), from [`{headline_name}`]"
        f"({headline_name}). Each links to the results file of the command that wrote it; the commands are listed "
        "at the end. The protocol and the other figures: [`docs/results.md`](../docs/results.md).",
    ]
    by_group: Dict[str, List[Figure]] = {group: [] for group in GROUPS}
    for figure in figures:
        by_group[FIGURES[figure.key][0] if figure.key in FIGURES else "Other"].append(figure)
    order = {key: i for i, key in enumerate(FIGURES)}
    for group, members in by_group.items():
        members.sort(key=lambda figure: (order.get(figure.key, len(order)), figure.key))
        if not members:
            continue
        lines += ["", f"## {group}", "", "| figure | value | results |", "| --- | --- | --- |"]
        for figure in members:
            _, what, unit = FIGURES.get(figure.key, ("Other", f"`{figure.key}`", "share"))
            link = _relative(figure.results_file)
            lines.append(f"| {what} | {format_value(figure.value, unit)} | [`{link}`]({link}) |")
    lines += ["", "## Commands", ""]
    for figure in figures:
        lines += [f"`{figure.key}`:", "", "```bash", figure.command, "```", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def _relative(path: str) -> str:
    """RETURNS (str): a repository path as a link from `results/README.md`."""
    return path[len("results/"):] if path.startswith("results/") else f"../{path}"


@app.command()
def main(
    headline: Path = typer.Option(Path("results/headline.json"), "--headline", help="The headline figures"),
    output: Path = typer.Option(Path("results/README.md"), "--output", help="The page to write or check"),
    root: Path = typer.Option(Path("."), "--root", help="The repository root the commands' paths are under"),
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 when OUTPUT differs"),
) -> None:
    """Write (or check) the results page built from the headline figures."""
    try:
        page = render(read_figures(headline, root), headline.name)
    except ValueError as error:
        typer.echo(f"results_readme: {error}", err=True)
        raise typer.Exit(2)
    if check:
        current = output.read_text(encoding="utf8") if output.is_file() else None
        if current != page:
            typer.echo(f"{output} is stale: run `python -m training.evaluation.results_readme`", err=True)
            raise typer.Exit(1)
        typer.echo(f"{output} is up to date")
        return
    output.write_text(page, encoding="utf8")
    typer.echo(f"wrote {output}")


if __name__ == "__main__":
    app()
