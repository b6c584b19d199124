"""What a reader sees: every link the pipeline makes on a sample of text no one tuned on, listed for judging.

    python -m training.evaluation.link_sample PIPELINE TEXT --match "Drosophila|C\\. elegans|zebrafish" \\
        --sample 150 --seed 7 --output results/organisms_all/unseen_sentences

TEXT: one text per line (gzip or plain), e.g. the mirror's `unlabelled/biomedical_sentences.txt.gz`. The lines that
`--match` (a regular expression; all lines without it) are drawn, `--sample` of them with `--seed`. Writes
`links.tsv` (one row per linked or unlinked entity of a routed label: text number, mention, label, reference set,
id, `kb_score`, the name the best candidate matched, whether it was linked, an empty `judged` column for a reader's
verdict, the context) and `metrics.json` (texts, entities, linked, unlinked, by reference set). No gold exists for
such text: whether a link is right is the reader's judgement, written into `judged` and summed in the results README.

`--versus KEY=VALUE` (an organism assigner setting, `AssignerSettings`) runs the same texts a second time with the
setting changed and writes `changed.tsv`: the entities whose id or linking differs, both answers side by side, for
judging what a setting does on text it was not chosen on.
"""

import dataclasses
import json
import random
import re
import sys
from pathlib import Path
from typing import Dict, Iterable, List, Optional

import spacy
import typer
from spacy.language import Language
from spacy.tokens import Doc
from wasabi import msg

from spacy_nseen.linker.candidate import Candidate
from spacy_nseen.pipe.routing import route_entities
from training.evaluation.case_vetoes import context_of, linker_pipe, read_lines
from training.evaluation.evaluate_organisms import parse_settings

COLUMNS = ("text", "mention", "label", "kb", "kb_id", "kb_score", "matched_name", "linked", "judged", "context")


def matching_lines(lines: List[str], pattern: Optional[str]) -> List[str]:
    """RETURNS (List[str]): the lines in which the regular expression `pattern` is found (all lines if None);
    ValueError naming the pattern if it does not compile."""
    if pattern is None:
        return list(lines)
    try:
        regex = re.compile(pattern)
    except re.error as err:
        raise ValueError(f"--match {pattern!r} is not a regular expression ({err})") from None
    return [line for line in lines if regex.search(line)]


def link_rows(nlp: Language, docs: Iterable[Doc]) -> List[Dict[str, object]]:
    """RETURNS (List[Dict[str, object]]): one row (`COLUMNS`) per entity the linker routes to a reference set,
    in text order."""
    pipe = linker_pipe(nlp)
    rows: List[Dict[str, object]] = []
    for number, doc in enumerate(docs):
        for routed in route_entities(doc, pipe.kbs, overwrite=True):
            ent = routed.span
            candidates = [Candidate(*c) for c in (ent._.kb_candidates or [])]
            best = next((c for c in candidates if c.kb_id == ent.kb_id_), candidates[0] if candidates else None)
            score = ent._.kb_score
            rows.append(
                {
                    "text": number,
                    "mention": ent.text,
                    "label": ent.label_,
                    "kb": routed.kb,
                    "kb_id": ent.kb_id_ or (best.kb_id if best is not None else ""),
                    "kb_score": "" if score is None else round(float(score), 3),
                    "matched_name": best.name if best is not None else "",
                    "linked": bool(ent.kb_id_),
                    "judged": "",
                    "context": context_of(doc, ent.start_char, ent.end_char),
                }
            )
    return rows


def with_assigner_setting(nlp: Language, setting: str) -> None:
    """Change one organism assigner setting (`KEY=VALUE`, as `evaluate_organisms --set`) of a loaded pipeline."""
    key = setting.partition("=")[0].strip()
    value = getattr(parse_settings(setting), key)
    assigner = linker_pipe(nlp).organism_assigner
    if assigner is None:
        raise ValueError("the pipeline's linker assigns no organisms")
    assigner.settings = dataclasses.replace(assigner.settings, **{key: value})


def changed_rows(base: List[Dict[str, object]], other: List[Dict[str, object]]) -> List[Dict[str, object]]:
    """RETURNS (List[Dict[str, object]]): the rows whose id or linking differs between two runs over the same
    texts, each with the second run's answer as `kb_id_versus`, `linked_versus`, `kb_score_versus`."""
    if [(r["text"], r["mention"]) for r in base] != [(r["text"], r["mention"]) for r in other]:
        raise ValueError("the two runs found different entities: their rows cannot be paired")
    return [
        {**a, "kb_id_versus": b["kb_id"], "linked_versus": b["linked"], "kb_score_versus": b["kb_score"]}
        for a, b in zip(base, other)
        if (a["kb_id"], a["linked"]) != (b["kb_id"], b["linked"])
    ]


def write_rows(path: Path, rows: List[Dict[str, object]], columns: Iterable[str]) -> None:
    """Write rows as a TSV with a header (`columns`)."""
    columns = list(columns)
    lines = ["\t".join(columns)] + ["\t".join(str(row[c]) for c in columns) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")


def summary(rows: List[Dict[str, object]], n_texts: int) -> Dict[str, object]:
    """RETURNS (Dict[str, object]): counts of texts, entities and links, overall and by reference set."""
    by_kb: Dict[str, Dict[str, int]] = {}
    for row in rows:
        counts = by_kb.setdefault(str(row["kb"]), {"entities": 0, "linked": 0})
        counts["entities"] += 1
        counts["linked"] += int(bool(row["linked"]))
    linked = sum(c["linked"] for c in by_kb.values())
    return {"texts": n_texts, "entities": len(rows), "linked": linked, "unlinked": len(rows) - linked, "by_kb": by_kb}


def main(
    pipeline: str = typer.Argument(..., help="A pipeline directory or installed package"),
    text: Path = typer.Argument(..., help="One text per line (gzip or plain)", exists=True, dir_okay=False),
    output: Path = typer.Option(..., "--output", help="Directory for links.tsv and metrics.json"),
    match: Optional[str] = typer.Option(None, "--match", help="Draw only lines this regular expression finds"),
    sample: int = typer.Option(150, "--sample", min=1, help="Lines drawn at random (all if fewer)"),
    seed: int = typer.Option(7, "--seed"),
    versus: Optional[str] = typer.Option(None, "--versus", help="KEY=VALUE: an organism assigner setting to compare"),
) -> None:
    try:
        lines = matching_lines(read_lines(text), match)
        if versus is not None:
            parse_settings(versus)
    except (ValueError, typer.BadParameter) as err:
        msg.fail(str(err), exits=1)
    random.seed(seed)
    chosen = random.sample(lines, min(sample, len(lines)))
    nlp = spacy.load(pipeline)
    rows = link_rows(nlp, nlp.pipe(chosen))
    output.mkdir(parents=True, exist_ok=True)
    write_rows(output / "links.tsv", rows, COLUMNS)
    metrics: Dict[str, object] = {
        "command": "python -m training.evaluation.link_sample " + " ".join(sys.argv[1:]),
        "lines_matching": len(lines),
        **summary(rows, len(chosen)),
    }
    if versus is not None:
        with_assigner_setting(nlp, versus)
        changed = changed_rows(rows, link_rows(nlp, nlp.pipe(chosen)))
        write_rows(output / "changed.tsv", changed, [*COLUMNS, "kb_id_versus", "linked_versus", "kb_score_versus"])
        metrics.update({"versus": versus, "changed": len(changed)})
    (output / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf8")
    msg.good(f"{len(chosen)} texts: {metrics['linked']} of {metrics['entities']} entities linked; wrote {output}")


if __name__ == "__main__":
    typer.run(main)
