"""A consistently labelled view of the ORGANISM gold: every occurrence of a name Bio-ID labels ORGANISM in the article.

Bio-ID labels organism words unevenly (`bacteria` in 16 of 135 training occurrences, `rabbit` in 0 of 80), so
ORGANISM recall against its mentions is capped by captions that leave a name unlabelled while another caption of
the same article labels it. This view adds, to the gold ORGANISM spans, every other occurrence (case-insensitive,
on word boundaries) of a text that Bio-ID labels ORGANISM anywhere in the same article, unless it overlaps a gold
span of another label. Only the dev docs' own Bio-ID mentions are read.
"""

import re
from collections import defaultdict
from typing import Dict, List, Sequence, Set, Tuple

from spacy.tokens import Doc

SpanKey = Tuple[int, int, int, str]  # (doc index, start char, end char, label)
LABEL = "ORGANISM"


def article_names(docs: Sequence[Doc], gold: Set[SpanKey]) -> Dict[str, Set[str]]:
    """RETURNS (Dict[str, Set[str]]): per article (`user_data["pmc_id"]`), the lower-cased texts of its gold
    ORGANISM spans."""
    names: Dict[str, Set[str]] = defaultdict(set)
    for i, start, end, label in gold:
        if label == LABEL:
            names[str(docs[i].user_data.get("pmc_id", ""))].add(docs[i].text[start:end].lower())
    return names


def occurrences(text: str, names: Set[str]) -> List[Tuple[int, int]]:
    """RETURNS (List[Tuple[int, int]]): the character spans where a name occurs in `text`, case-insensitive, not
    inside a longer word, longest names first and never overlapping one another."""
    found: List[Tuple[int, int]] = []
    lowered = text.lower()
    for name in sorted(names, key=lambda n: (-len(n), n)):
        if not name.strip():
            continue
        for match in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", lowered):
            span = match.span()
            if all(span[1] <= s or span[0] >= e for s, e in found):
                found.append(span)
    return sorted(found)


def consistent_organism_gold(docs: Sequence[Doc], gold: Set[SpanKey]) -> Set[SpanKey]:
    """The ORGANISM gold of the consistent view: the gold ORGANISM spans plus each occurrence of a name the same
    article labels ORGANISM that overlaps no gold span of another label.

    docs (Sequence[Doc]): the dev docs, indexed as in `gold` (with `user_data["pmc_id"]`).
    gold (Set[SpanKey]): the Bio-ID gold spans of every label (`ner_report.bioid_gold`).
    RETURNS (Set[SpanKey]): ORGANISM spans only.
    """
    names = article_names(docs, gold)
    others: Dict[int, List[Tuple[int, int]]] = defaultdict(list)
    view = {key for key in gold if key[3] == LABEL}
    for i, start, end, label in gold:
        if label != LABEL:
            others[i].append((start, end))
    for i, doc in enumerate(docs):
        article = names.get(str(doc.user_data.get("pmc_id", "")))
        if not article:
            continue
        for start, end in occurrences(doc.text, article):
            if all(end <= s or start >= e for s, e in others[i]):
                view.add((i, start, end, LABEL))
    return view
