"""Which links `link_case_mismatch` withholds, on any text: a lower-case word whose exact matches are all
capitalised aliases or mnemonics (`simple` → SIMPLE; `spacy_nseen.text.case_forms`).

    python -m training.evaluation.case_vetoes PIPELINE TEXT --sample 3000 --seed 11 --output results/case_forms

TEXT: one text per line (gzip or plain), e.g. the mirror's `unlabelled/biomedical_sentences.txt.gz`; `--sample` of
them are drawn with `--seed`. The pipeline keeps a withheld link's candidates, so each unlinked entity is checked
again with its reference set's `Fusion.case_vetoed`. Writes `vetoes.tsv` (mention, reference set, best candidate
and its name, count, a `judged` column left empty for a reader's verdict, the first occurrence's context) and
`metrics.json` (texts, links kept,
links withheld). Whether a withheld link was right is a reader's judgement: no gold exists for such text.
"""

import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

import spacy
import typer
from spacy.language import Language
from spacy.tokens import Doc
from wasabi import msg

from spacy_nseen.linker.candidate import Candidate
from spacy_nseen.pipe.routing import route_entities
from spacy_nseen.reference.reference_set import open_text

Vetoed = Tuple[str, str, str, str]  # mention, reference set, kb_id, candidate name
CONTEXT_CHARS = 60


def read_lines(path: Path) -> List[str]:
    """RETURNS (List[str]): the non-empty lines of a plain or gzip text file."""
    try:
        with open_text(path) as f:
            return [line.strip() for line in f if line.strip()]
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise ValueError(f"{path}: cannot read it as UTF-8 text, one text per line ({err})") from None


def linker_pipe(nlp: Language):
    """RETURNS: the pipeline's `nseen_linker` component."""
    for name, pipe in nlp.pipeline:
        if nlp.get_pipe_meta(name).factory == "nseen_linker":
            return pipe
    raise ValueError("the pipeline has no nseen_linker component")


def context_of(doc: Doc, start: int, end: int, width: int = CONTEXT_CHARS) -> str:
    """RETURNS (str): the text around characters start:end, the mention marked `[[...]]` (one line)."""
    text = doc.text
    left, right = text[max(0, start - width) : start], text[end : end + width]
    return " ".join(f"{left}[[{text[start:end]}]]{right}".split())


def vetoed_links(nlp: Language, docs: Iterable[Doc]) -> Tuple[Counter, int, Dict[Vetoed, str]]:
    """RETURNS (Tuple[Counter, int, Dict]): the withheld links (`Vetoed` → count), the number of links kept and
    the context of each withheld link's first occurrence (`context_of`), for a reader to judge it."""
    pipe = linker_pipe(nlp)
    vetoed: Counter = Counter()
    contexts: Dict[Vetoed, str] = {}
    kept = 0
    for doc in docs:
        for routed in route_entities(doc, pipe.kbs, overwrite=True):
            ent = routed.span
            if ent.kb_id_:
                kept += 1
                continue
            candidates = [Candidate(*c) for c in (ent._.kb_candidates or [])]
            if candidates and pipe.linkers[routed.kb].fusion().case_vetoed(ent.text, candidates):
                key = (ent.text, routed.kb, candidates[0].kb_id, candidates[0].name)
                vetoed[key] += 1
                contexts.setdefault(key, context_of(doc, ent.start_char, ent.end_char))
    return vetoed, kept, contexts


def main(
    pipeline: str = typer.Argument(..., help="A pipeline directory or installed package"),
    text: Path = typer.Argument(..., help="One text per line (gzip or plain)", exists=True, dir_okay=False),
    output: Path = typer.Option(..., "--output", help="Directory for vetoes.tsv and metrics.json"),
    sample: int = typer.Option(3000, "--sample", min=1, help="Lines drawn at random (all if fewer)"),
    seed: int = typer.Option(11, "--seed"),
) -> None:
    try:
        lines = read_lines(text)
    except ValueError as err:
        msg.fail(str(err), exits=1)
    random.seed(seed)
    chosen = random.sample(lines, min(sample, len(lines)))
    nlp = spacy.load(pipeline)
    vetoed, kept, contexts = vetoed_links(nlp, nlp.pipe(chosen))
    output.mkdir(parents=True, exist_ok=True)
    rows = ["mention\tkb\tkb_id\tname\tcount\tjudged\tcontext"]
    for key, count in sorted(vetoed.items(), key=lambda kv: (-kv[1], kv[0])):
        mention, kb, kb_id, name = key
        rows.append(f"{mention}\t{kb}\t{kb_id}\t{name}\t{count}\t\t{contexts[key]}")
    (output / "vetoes.tsv").write_text("\n".join(rows) + "\n", encoding="utf8")
    metrics: Dict[str, object] = {
        "command": "python -m training.evaluation.case_vetoes " + " ".join(sys.argv[1:]),
        "texts": len(chosen),
        "links_kept": kept,
        "links_withheld": sum(vetoed.values()),
        "distinct_withheld": len(vetoed),
    }
    (output / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf8")
    msg.good(f"{len(chosen)} texts: {kept} links kept, {metrics['links_withheld']} withheld; wrote {output}")


if __name__ == "__main__":
    typer.run(main)
