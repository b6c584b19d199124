"""Affix rules of `nseen_glued_names`: which text glued to a protein name marks a token as name + affix.

Captions glue names to prefixes and suffixes that no tokenizer rule can split in general: `hTau`, `γH2AX`,
`Atg5F/F`'s `Atg5F`, `Npc2+`, `Dgcr8Δ`, `3HA`. Bio-ID's mention is the name inside the token, so an NER that
tags the whole token has the wrong span, and the linker searches `hTau` instead of `Tau`. This step learns, from
the NER's training captions only, the (prefix, suffix) pairs for which trimming a token to the listed name inside
it gives the gold span more often than it breaks one:

- for every token that is a gold PROTEIN/GENE mention (`whole`) or holds one strictly inside it (`inner`), and
  whose own text is not a listed name, every split `prefix + core + suffix` with `core` a listed name
  (lower-cased, at least MIN_CORE characters) counts for its (prefix, suffix): `right` when the inner mention is
  the core, `wrong` when it is another part, `breaks` when the whole token is the mention;
- a pair is kept when it was right at least `min_right` times, in at least `min_precision` of its counts and in
  at least `min_documents` articles: a pair right in one article only is that article's notation (one article's
  `Rpp3018.2` made `18.2` a suffix, which then cut `HSP18.2` to `HSP`).

Only the training captions' mentions (spans and types, no normalization) and the PROTEIN name list are read.

    python -m training.ner.glued_name_rules corpus/ner/train.spacy corpus/ner/protein_names.txt.gz \\
        corpus/ner/glued_name_rules.json
"""
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Set, Tuple

import typer
from wasabi import msg

from spacy_nseen.reference.reference_set import open_text

MIN_CORE = 2
MAX_TOKEN_CHARS = 40
FORMAT_VERSION = 1
PROTEIN_TYPES = ("protein", "gene")

Affixes = Tuple[str, str]
GoldToken = Tuple[str, str, Tuple[int, int], str]


@dataclass
class PairCounts:
    """The outcomes of one (prefix, suffix) split and the articles in which it was right."""

    outcomes: Counter = field(default_factory=Counter)
    right_documents: Set[str] = field(default_factory=set)


def read_names(path: Path) -> Set[str]:
    """RETURNS (Set[str]): the listed names, lower-cased, at least MIN_CORE characters (one name per line)."""
    with open_text(path) as f:
        return {name for name in (line.strip().lower() for line in f) if len(name) >= MIN_CORE}


def splits(text: str, names: Set[str]) -> Iterator[Tuple[int, int]]:
    """The (start, end) of every listed name strictly inside `text` (with a prefix, a suffix or both).

    RETURNS (Iterator[Tuple[int, int]]): character offsets of the core into `text`.
    """
    lower = text.lower()
    for start in range(len(lower)):
        for end in range(start + MIN_CORE, len(lower) + 1):
            if (start, end) != (0, len(lower)) and lower[start:end] in names:
                yield start, end


def count_affixes(tokens: Iterable[GoldToken], names: Set[str]) -> Dict[Affixes, PairCounts]:
    """Count each (prefix, suffix) split's outcomes over gold-related tokens.

    tokens: (token text, "whole" or "inner", the inner mention's offsets into the token or (0, 0), article id).
    RETURNS (Dict[Affixes, PairCounts]): (prefix, suffix) → {"right", "wrong", "breaks": count} and the articles
        in which it was right.
    """
    counts: Dict[Affixes, PairCounts] = defaultdict(PairCounts)
    for text, kind, inner, document in tokens:
        if len(text) > MAX_TOKEN_CHARS or text.lower() in names:
            continue
        for start, end in splits(text, names):
            outcome = "breaks" if kind == "whole" else "right" if (start, end) == inner else "wrong"
            pair = counts[(text[:start], text[end:])]
            pair.outcomes[outcome] += 1
            if outcome == "right":
                pair.right_documents.add(document)
    return counts


def select_rules(counts: Dict[Affixes, PairCounts], min_right: int, min_precision: float,
                 min_documents: int = 1) -> List[Dict[str, object]]:
    """RETURNS (List[Dict]): the kept pairs, most precise first: prefix, suffix, right, total, precision, documents."""
    rules = []
    for (prefix, suffix), pair in counts.items():
        right, total, documents = pair.outcomes["right"], sum(pair.outcomes.values()), len(pair.right_documents)
        if right >= min_right and right / total >= min_precision and documents >= min_documents:
            rules.append({"prefix": prefix, "suffix": suffix, "right": right, "total": total,
                          "precision": round(right / total, 4), "documents": documents})
    return sorted(rules, key=lambda r: (-r["precision"], -r["right"], r["prefix"], r["suffix"]))


def gold_tokens(docs: Iterable, types: Tuple[str, ...] = PROTEIN_TYPES) -> Iterator[GoldToken]:
    """The tokens of the training docs that are a gold mention of `types` or hold one strictly inside.

    docs: Docs of `training.ner.ner_corpus` (their tokens, `user_data["mentions"]` and `user_data["pmc_id"]`).
    RETURNS (Iterator): (token text, "whole" or "inner", inner mention offsets into the token or (0, 0), article id).
    """
    for doc in docs:
        mentions = doc.user_data.get("mentions")
        document = doc.user_data.get("pmc_id")
        if mentions is None or document is None:
            raise ValueError("the docs have no user_data['mentions'] or ['pmc_id']: rebuild them with "
                             "training.ner.ner_corpus")
        spans = [(int(s), int(e)) for s, e, t, *_ in mentions if t in types]
        for token in doc:
            start, end = token.idx, token.idx + len(token)
            if (start, end) in spans:
                yield token.text, "whole", (0, 0), str(document)
                continue
            inner = [(s - start, e - start) for s, e in spans if start <= s and e <= end]
            if inner:
                yield token.text, "inner", inner[0], str(document)


def main(
    train: Path = typer.Argument(..., help="The NER's training DocBin (training.ner.ner_corpus)", exists=True),
    names: Path = typer.Argument(..., help="The PROTEIN name list (training.ner.name_lists protein)", exists=True),
    output: Path = typer.Argument(..., help="Rules JSON, read by nseen_glued_names at initialize"),
    min_right: int = typer.Option(3, help="Keep a pair right at least this many times"),
    min_precision: float = typer.Option(0.7, help="... and right in at least this share of its counts"),
    min_documents: int = typer.Option(2, help="... and right in at least this many training articles"),
) -> None:
    """Learn the prefix/suffix pairs that `nseen_glued_names` trims from a tagged token."""
    import spacy
    from spacy.tokens import DocBin

    listed = read_names(names)
    docs = DocBin(store_user_data=True).from_disk(train).get_docs(spacy.blank("en").vocab)
    try:
        counts = count_affixes(gold_tokens(docs), listed)
    except ValueError as err:
        msg.fail(f"{train}: {err}", exits=1)
    rules = select_rules(counts, min_right, min_precision, min_documents)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps({
        "format_version": FORMAT_VERSION, "train": str(train), "names": str(names), "min_right": min_right,
        "min_precision": min_precision, "min_documents": min_documents, "pairs_counted": len(counts), "rules": rules}, indent=1, ensure_ascii=False),
        encoding="utf8")
    msg.good(f"{len(rules)} affix rules of {len(counts)} pairs → {output}")


if __name__ == "__main__":
    typer.run(main)
