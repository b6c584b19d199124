"""The names of the CHEMICAL gazetteer (`nseen_gazetteer` after the NER in `configs/ner.cfg`).

The statistical NER learns the chemicals of its training captions; a chemical first met in new text (`folate`,
`zymosan`, `sialic acid`) is often missed. The gazetteer adds the ChEBI names the NER left untagged. A name is
kept when
- it has MIN_CHARS to MAX_CHARS characters and is not a short word of letters only (≤ SHORT_WORD: `MCP`, `Myr`,
  `ABL` are protein and gene abbreviations far more often than chemicals in captions);
- it does not end in a word that makes it a role or a protein (`BTK inhibitor`, `IP3 receptor`, `Tris buffer`);
- the training captions do not mostly leave it unlabelled: where it occurs there (as whole tokens), at least
  `min_labelled` of the occurrences are CHEMICAL mentions (`DNA`, `dsRNA` and `iron` go; names never seen stay).

Measured on the held-out dev articles (results/ner/experiments/README.md): chosen on the even-numbered articles,
confirmed on the odd ones.

    python -m training.ner.chemical_gazetteer corpus/reference/chebi.tsv.gz corpus/ner/train.spacy \\
        corpus/ner/chemical_names.txt.gz --stats corpus/ner/chemical_names.json
"""
import gzip
import json
import re
from collections import Counter
from pathlib import Path
from typing import Callable, Collection, Dict, Iterable, Iterator, List, Optional, Tuple

import spacy
import typer
from spacy.tokens import DocBin
from wasabi import msg

from spacy_nseen.ner.gazetteer import Gazetteer
from training.common.tsv_io import iter_tsv
from training.ner.bio_tokenizer import customize_tokenizer

LABEL = "CHEMICAL"
MIN_CHARS, MAX_CHARS, SHORT_WORD = 3, 40, 4
ROLE_WORDS = re.compile(r"\b(?:inhibitor|receptor|chelator|agonist|antagonist|buffer|kinase)s?$", re.IGNORECASE)

app = typer.Typer(add_completion=False)


def name_shape_ok(name: str) -> bool:
    """RETURNS (bool): whether a name's own form allows it in the gazetteer (length, short words, role words)."""
    if not MIN_CHARS <= len(name) <= MAX_CHARS:
        return False
    if len(name) <= SHORT_WORD and name.isalpha():
        return False
    return not ROLE_WORDS.search(name)


def training_counts(gazetteer: Gazetteer, docs: Iterable[spacy.tokens.Doc], labels: Collection[str]
                    ) -> Tuple[Counter, Counter]:
    """RETURNS: per gazetteer key, its occurrences in the docs and how many of them are gold spans of `labels`."""
    seen: Counter = Counter()
    labelled: Counter = Counter()
    for doc in docs:
        gold = {(ent.start, ent.end) for ent in doc.ents if ent.label_ in labels}
        for start, end in gazetteer.matches(doc):
            key = gazetteer.key_of_tokens(t.text for t in doc[start:end])
            seen[key] += 1
            labelled[key] += (start, end) in gold
    return seen, labelled


def select_names(names: Iterable[str], docs: List[spacy.tokens.Doc], nlp: spacy.Language, min_labelled: float, *,
                 labels: Collection[str] = (LABEL,), shape_ok: Callable[[str], bool] = name_shape_ok,
                 lowercase: bool = False) -> Tuple[List[str], Dict[str, int]]:
    """RETURNS: the names of the right shape (`shape_ok`) that the training docs do not mostly leave without one
    of `labels` (sorted, distinct), and counts of what was dropped and why. `lowercase`: names are matched as
    the lower-case gazetteer the list is for matches them."""
    shaped = sorted({n.strip() for n in names if shape_ok(n.strip())})
    probe = Gazetteer(nlp, label=LABEL, max_tokens=8, lowercase=lowercase)
    tokenize = probe.name_tokenizer()
    keys = {name: probe.key_of(name, tokenize) for name in shaped}  # each name tokenized once
    probe.add_keys(key for key in keys.values() if key is not None)
    seen, labelled = training_counts(probe, docs, labels)
    kept, unlabelled = [], 0
    for name in shaped:
        key = keys[name]
        if key is None:
            continue
        if seen[key] and labelled[key] / seen[key] < min_labelled:
            unlabelled += 1
            continue
        kept.append(name)
    stats = {"names_with_the_shape": len(shaped), "dropped_mostly_unlabelled": unlabelled, "kept": len(kept),
             "kept_seen_in_training": sum(1 for n in kept if seen[keys[n]]),
             "min_labelled_percent": int(round(100 * min_labelled))}
    return kept, stats


def name_column(path: Path) -> Iterator[str]:
    """YIELDS (str): the `name` column of a reference TSV (gzip allowed), read as it is consumed."""
    for row in iter_tsv(path, ("name",)):
        yield row["name"]


def write_selected_names(read_names: Callable[[], Iterable[str]], source: Path, train: Path, output: Path, *,
                         min_labelled: float, stats: Optional[Path], stats_head: Dict[str, object],
                         labels: Collection[str] = (LABEL,), shape_ok: Callable[[str], bool] = name_shape_ok,
                         lowercase: bool = False) -> None:
    """Check the inputs, then read the names from `source` (`read_names`), keep them (`select_names`) and write
    them, one per line (`.gz` allowed), and their stats (`stats_head` first) as JSON; a bad option or a missing
    file ends the command with a message before anything is read."""
    if not 0.0 <= min_labelled <= 1.0:
        msg.fail(f"--min-labelled must be in [0, 1], got {min_labelled}", exits=1)
    for path in (source, train):
        if not path.is_file():
            msg.fail(f"{path}: not found (run the fetch, reference-sets and ner-corpus steps first)", exits=1)
    nlp = customize_tokenizer(spacy.blank("en"))
    docs = list(DocBin().from_disk(train).get_docs(nlp.vocab))
    kept, counts = select_names(read_names(), docs, nlp, min_labelled, labels=labels, shape_ok=shape_ok,
                                lowercase=lowercase)
    output.parent.mkdir(parents=True, exist_ok=True)
    opener = gzip.open if output.suffix == ".gz" else open
    with opener(output, "wt", encoding="utf8") as file_:  # type: ignore[operator]
        file_.write("".join(f"{name}\n" for name in kept))
    if stats is not None:
        stats.write_text(json.dumps({**stats_head, **counts}, indent=2) + "\n")
    msg.good(f"{counts['kept']:,} names → {output} ({counts['dropped_mostly_unlabelled']:,} dropped as mostly unlabelled)")


@app.command()
def main(
    reference: Path = typer.Argument(..., help="The ChEBI reference set TSV (kb_id, name, kind, ...; gzip allowed)"),
    train: Path = typer.Argument(..., help="The NER's training DocBin (gold entities)"),
    output: Path = typer.Argument(..., help="The names file to write (one per line; .gz allowed)"),
    min_labelled: float = typer.Option(0.5, help="Drop a name whose training occurrences are CHEMICAL less often than this"),
    stats: Optional[Path] = typer.Option(None, help="Write what was kept and dropped (JSON)"),
) -> None:
    """Write the CHEMICAL gazetteer's names."""
    write_selected_names(lambda: name_column(reference), reference, train, output, min_labelled=min_labelled, stats=stats,
                         stats_head={"reference": str(reference), "train": str(train)})


if __name__ == "__main__":
    app()
