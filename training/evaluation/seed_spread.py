"""How much Hits@1 depends on the training seed: the same recipe trained with several seeds, each linker scored.

    python -m training.evaluation.seed_spread --kb uniprot --reference corpus/reference/uniprot.tsv.gz \\
        --mentions corpus/sources/bioid/mentions.tsv.gz --run 0=training_output/linkers/uniprot \\
        --run 1=training_output/seeds/uniprot_seed1/linker --run 2=training_output/seeds/uniprot_seed2/linker \\
        --log 0=training_output/uniprot/log.jsonl --output results/seeds_uniprot --headline results/headline.json

Each run is scored as `training.evaluation.evaluate` scores it (hybrid `nseen` and `mode="dense"`, per mention
occurrence and per unique (mention, gold ids) pair, in-KB mentions); the report gives every seed, the mean, the
standard deviation and the spread (max − min), and the ten most frequent strings' share of the hybrid's hits.
"""
import json
import statistics
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import typer
from wasabi import msg

from training.common.bioid import BioIDFormatError, kb_queries, read_mentions, read_secondary_map
from training.common.headline import command_line, update_headline
from training.evaluation.baselines import read_reference
from training.evaluation.evaluate import LinkerRanker, evaluate_rankers, select_documents

app = typer.Typer(add_completion=False)
SYSTEMS = (("hybrid", None), ("dense", "dense"))
FIGURES = (("hybrid", "per_occurrence"), ("hybrid", "per_unique_pair"), ("dense", "per_occurrence"),
           ("dense", "per_unique_pair"))


def parse_runs(specs: Sequence[str], what: str) -> Dict[str, Path]:
    """`SEED=PATH` options as {seed: path}; a malformed or repeated seed is an error naming the option."""
    runs: Dict[str, Path] = {}
    for spec in specs:
        seed, sep, path = spec.partition("=")
        if not sep or not seed.strip() or not path.strip():
            raise typer.BadParameter(f"{what} {spec!r}: expected SEED=PATH, e.g. 1=training_output/seeds/uniprot_seed1/linker")
        if seed.strip() in runs:
            raise typer.BadParameter(f"{what}: seed {seed.strip()!r} given twice")
        runs[seed.strip()] = Path(path.strip())
    return runs


def last_dev_score(log: Path) -> Optional[float]:
    """The dev Hits@1 (held-out reference names) of a training log's last round, None without one."""
    rows = [json.loads(line) for line in log.read_text(encoding="utf8").splitlines() if line.strip()]
    scores = [r["dev_hits_at_1"] for r in rows if isinstance(r, dict) and "dev_hits_at_1" in r]
    return float(scores[-1]) if scores else None


def summarise(values: Sequence[float]) -> Dict[str, float]:
    """Mean, sample standard deviation (0 for one value) and spread (max − min) of the seeds' figures."""
    return {"mean": round(statistics.fmean(values), 4),
            "std": round(statistics.stdev(values), 4) if len(values) > 1 else 0.0,
            "spread": round(max(values) - min(values), 4), "min": round(min(values), 4), "max": round(max(values), 4)}


def score_run(linker_dir: Path, queries: Sequence[Any], entities: set) -> Dict[str, Any]:
    """Hits@k of one linker, hybrid and dense (as `training.evaluation.evaluate` computes them)."""
    from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker

    linker = KnowledgeBaseLinker.from_disk(linker_dir)
    rankers = [LinkerRanker(linker, name=name, mode=mode) for name, mode in SYSTEMS]
    return evaluate_rankers(queries, entities, rankers)


def markdown(report: Dict[str, Any]) -> str:
    """The seeds table, the summary rows and the frequent strings of each seed."""
    head = "| seed | hybrid H@1 (occurrences) | hybrid H@1 (unique pairs) | dense H@1 (occurrences) | dense H@1 (unique pairs) | dev names H@1 | top-10 strings' share of hybrid hits | hybrid H@1 without the top 10 |"
    lines = [f"# Seed study: {report['kb']}", "", f"Command: `{report['command']}`", "",
             f"In-KB mentions: {report['counts']['in_kb']} occurrences, {report['counts']['unique_pairs_in_kb']} unique "
             "(mention, gold ids) pairs. Each seed is the same recipe and step budget; only `--seed` differs.", "",
             head, "| " + " | ".join(["---"] * 8) + " |"]
    for seed, run in report["runs"].items():
        dev = run.get("dev_hits_at_1")
        lines.append(f"| {seed} | " + " | ".join(f"{run[s][u]:.4f}" for s, u in FIGURES)
                     + f" | {'-' if dev is None else f'{dev:.3f}'} | {run['hybrid_top10_share_of_hits']:.3f}"
                     + f" | {run['hybrid_hits@1_without_top10']:.4f} |")
    for stat in ("mean", "std", "spread"):
        lines.append(f"| **{stat}** | " + " | ".join(f"{report['summary'][f'{s}_{u}'][stat]:.4f}" for s, u in FIGURES)
                     + " | | | |")
    lines += ["", "## The most frequent strings, hybrid, per seed (right / occurrences)", ""]
    seeds = list(report["runs"])
    strings = [m["mention"] for m in next(iter(report["runs"].values()))["hybrid_frequent"]]
    lines += ["| mention | occurrences | " + " | ".join(f"seed {s}" for s in seeds) + " |",
              "| --- | --- | " + " | ".join("---" for _ in seeds) + " |"]
    for text in strings:
        rows = [{m["mention"]: m for m in report["runs"][s]["hybrid_frequent"]}.get(text) for s in seeds]
        n = next(r["occurrences"] for r in rows if r)
        lines.append(f"| {text} | {n} | " + " | ".join("-" if r is None else str(r["right"]) for r in rows) + " |")
    return "\n".join(lines) + "\n"


@app.command()
def main(
    kb: str = typer.Option(..., "--kb", help="uniprot or chebi"),
    reference: Path = typer.Option(..., "--reference", help="Reference set TSV the linkers were built on"),
    mentions: Path = typer.Option(..., "--mentions", help="Bio-ID mentions TSV (any file in that format)"),
    run: List[str] = typer.Option(..., "--run", help="SEED=LINKER_DIR, once per seed"),
    log: Optional[List[str]] = typer.Option(None, "--log", help="SEED=TRAINING_LOG (log.jsonl) for the dev score; default <linker>/../log.jsonl"),
    chebi_secondary: Optional[Path] = typer.Option(None, "--chebi-secondary", help="ChEBI secondary → primary map"),
    documents: str = typer.Option("all", "--documents", help="all, even or odd documents"),
    output: Path = typer.Option(..., "--output", help="Output directory (metrics.json, metrics.md)"),
    headline: Optional[Path] = typer.Option(None, "--headline", help="Write <kb>_hybrid_hits1_seed_spread here"),
) -> None:
    """Score the linkers of several training seeds and report mean and spread of Hits@1."""
    command = command_line("training.evaluation.seed_spread")
    runs = parse_runs(run, "--run")
    logs = parse_runs(log or [], "--log")
    if len(runs) < 2:
        msg.fail("A seed study needs at least two --run SEED=LINKER_DIR", exits=1)
    for seed, path in list(runs.items()) + list(logs.items()):
        if not path.exists():
            msg.fail(f"{path} (seed {seed}) does not exist: train that seed first (project.yml: seeds-uniprot)", exits=1)
    try:
        secondary = read_secondary_map(chebi_secondary) if chebi_secondary else None
        queries = kb_queries(select_documents(read_mentions(mentions), documents), kb.lower(), secondary, None)
        ref = read_reference(reference)
    except (BioIDFormatError, FileNotFoundError, ValueError) as e:
        msg.fail(str(e), exits=1)
    entities = {secondary.get(i, i) for i in ref.kb_ids} if secondary else ref.entities
    report: Dict[str, Any] = {"kb": kb, "command": command, "mentions": str(mentions), "reference": str(reference),
                              "documents": documents, "runs": {}}
    for seed, linker_dir in runs.items():
        msg.info(f"seed {seed}: {linker_dir}")
        results = score_run(linker_dir, queries, entities)
        report["counts"] = results["counts"]
        hybrid, dense = results["systems"]["hybrid"], results["systems"]["dense"]
        log_path = logs.get(seed, linker_dir.parent / "log.jsonl")
        report["runs"][seed] = {
            "linker": str(linker_dir),
            "hybrid": {u: round(hybrid[u]["hits@1"], 4) for u in ("per_occurrence", "per_unique_pair")},
            "dense": {u: round(dense[u]["hits@1"], 4) for u in ("per_occurrence", "per_unique_pair")},
            "dev_hits_at_1": last_dev_score(log_path) if log_path.exists() else None,
            "hybrid_top10_share_of_hits": hybrid["frequent_mentions"]["top_share_of_hits"],
            "hybrid_hits@1_without_top10": hybrid["frequent_mentions"]["hits@1_without_top"],
            "hybrid_frequent": [{k: m[k] for k in ("mention", "occurrences", "right")}
                                for m in hybrid["frequent_mentions"]["strings"]],
        }
    report["summary"] = {f"{s}_{u}": summarise([r[s][u] for r in report["runs"].values()]) for s, u in FIGURES}
    output.mkdir(parents=True, exist_ok=True)
    (output / "metrics.json").write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf8")
    (output / "metrics.md").write_text(markdown(report), encoding="utf8")
    for s, u in FIGURES:
        stats = report["summary"][f"{s}_{u}"]
        msg.good(f"{s} {u}: mean {stats['mean']:.4f}, std {stats['std']:.4f}, spread {stats['spread']:.4f}")
    if headline is not None:
        spread = report["summary"]["hybrid_per_occurrence"]["spread"]
        update_headline(headline, {f"{kb.lower()}_hybrid_hits1_seed_spread": spread}, command)
        msg.info(f"headline {kb.lower()}_hybrid_hits1_seed_spread = {spread} -> {headline}")


if __name__ == "__main__":
    app()
