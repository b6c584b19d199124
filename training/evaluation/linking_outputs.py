"""What a pipeline writes on Bio-ID captions, article by article, and how two such runs differ: the check that a
change of the code or the config leaves the links as they were.

    python -m training.evaluation.linking_outputs write PIPELINE captions.tsv.gz OUT.jsonl [--articles N] [--figures]
    python -m training.evaluation.linking_outputs compare BEFORE.jsonl AFTER.jsonl [--out REPORT.json]

Each caption is linked with its article's other captions as context (`article_docs`), as the evaluation does.
A record per caption: its ids and entities (offsets, label, `kb_id_`, `kb_score`, `kb_taxon`).
"""
import json
from itertools import groupby
from pathlib import Path
from typing import Any, Dict, List, Optional

import spacy
import typer

from spacy_nseen.pipe.article import article_docs
from training.common.bioid import figure_of, read_captions

app = typer.Typer(add_completion=False, no_args_is_help=True)


def entity_rows(doc: Any) -> List[List[Any]]:
    """RETURNS (List[List[Any]]): per entity: start, end, label, kb_id_, kb_score, kb_taxon."""
    rows = []
    for ent in doc.ents:
        score = ent._.kb_score if ent.has_extension("kb_score") else None
        taxon = ent._.kb_taxon if ent.has_extension("kb_taxon") else None
        rows.append([ent.start_char, ent.end_char, ent.label_, ent.kb_id_, score, taxon])
    return rows


@app.command("write")
def write(
    pipeline: str = typer.Argument(..., help="Pipeline directory or package"),
    captions: Path = typer.Argument(..., help="A Bio-ID captions TSV (the mirror's format)"),
    output: Path = typer.Argument(..., help="JSONL file to write, one record per caption"),
    articles: Optional[int] = typer.Option(None, "--articles", help="Only the first N articles"),
    figures: bool = typer.Option(False, "--figures", help="Give each panel caption its figure's other panels too"),
) -> None:
    """Link every caption with its article as context; write what the pipeline wrote."""
    nlp = spacy.load(pipeline)
    rows = read_captions(captions)
    groups = [list(group) for _, group in groupby(rows, key=lambda c: c.pmc_id)]
    if articles is not None:
        groups = groups[:articles]
    output.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with output.open("w", encoding="utf8") as out:
        for group in groups:
            keys = [figure_of(c.caption_id) for c in group] if figures else None
            docs = article_docs(nlp, [c.text for c in group], keys)
            for caption, doc in zip(group, nlp.pipe(docs)):
                record = {"pmc_id": caption.pmc_id, "caption_id": caption.caption_id, "ents": entity_rows(doc)}
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                n += 1
    typer.echo(f"{n} captions of {len(groups)} articles -> {output}")


def compare_records(before: List[Dict[str, Any]], after: List[Dict[str, Any]]) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): counts of entities, of those whose span, label, id or organism differ, and the
    largest score difference."""
    if [(r["pmc_id"], r["caption_id"]) for r in before] != [(r["pmc_id"], r["caption_id"]) for r in after]:
        raise ValueError("the two runs have other captions or another order")
    report: Dict[str, Any] = {"captions": len(before), "entities": 0, "linked": 0, "spans_differ": 0,
                              "labels_differ": 0, "ids_differ": 0, "taxa_differ": 0, "max_score_diff": 0.0,
                              "examples": []}
    for a, b in zip(before, after):
        report["entities"] += len(a["ents"])
        report["linked"] += sum(1 for e in a["ents"] if e[3])
        if [e[:2] for e in a["ents"]] != [e[:2] for e in b["ents"]]:
            report["spans_differ"] += 1
            report["examples"].append({"caption": a["caption_id"], "before": a["ents"], "after": b["ents"]})
            continue
        for x, y in zip(a["ents"], b["ents"]):
            report["labels_differ"] += x[2] != y[2]
            report["ids_differ"] += x[3] != y[3]
            report["taxa_differ"] += x[5] != y[5]
            if x[4] is not None and y[4] is not None:
                report["max_score_diff"] = max(report["max_score_diff"], abs(float(x[4]) - float(y[4])))
            if x[2:4] != y[2:4] and len(report["examples"]) < 20:
                report["examples"].append({"caption": a["caption_id"], "before": x, "after": y})
    report["identical_ids"] = report["spans_differ"] == report["labels_differ"] == report["ids_differ"] == 0
    return report


def read_jsonl(path: Path) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf8").splitlines() if line.strip()]


@app.command("compare")
def compare(
    before: Path = typer.Argument(..., help="JSONL of the run before the change"),
    after: Path = typer.Argument(..., help="JSONL of the run after it"),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the report as JSON here too"),
) -> None:
    """Compare two runs of `write`; exit 1 when an entity's span, label or id differs."""
    report = compare_records(read_jsonl(before), read_jsonl(after))
    text = json.dumps(report, indent=1, ensure_ascii=False)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text + "\n", encoding="utf8")
    summary = {k: v for k, v in report.items() if k != "examples"}
    typer.echo(json.dumps(summary))
    raise typer.Exit(0 if report["identical_ids"] else 1)


if __name__ == "__main__":
    app()
