"""`nseen_repeated_mentions`: a name the NER tagged once in a doc is tagged wherever else it occurs there.

A caption names the same protein several times (`LC3 … LC3-II … GFP-LC3 … LC3`), and a statistical NER tags some
of the occurrences and misses others, whose context differs. After the NER (and any ruler or gazetteer), this
component gives each untagged occurrence of an entity's exact tokens the label that entity has in the doc (the
most frequent one if it has several), where no entity overlaps it. It never changes or removes an entity.

Only the labels in `labels` are repeated: measured on the held-out dev articles, repeating PROTEIN and GENE names
raises the F of the spans routed to UniProt on both halves, while repeating CHEMICAL or the other labels costs
precision (`results/ner/experiments/README.md`). It keeps no state: the settings are its whole config.
"""

from collections import Counter
from typing import Dict, Iterable, List, Mapping, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span

DEFAULT_LABELS = ("PROTEIN", "GENE")


class RepeatedMentions:
    """Tags the untagged repeats of a doc's entities of some labels.

    labels (Iterable[str]): the labels whose entities are repeated.
    min_chars (int): entities shorter than this (in characters) are not repeated (`A`, `B` of panel letters).
    """

    def __init__(
        self,
        nlp: Language,
        name: str = "nseen_repeated_mentions",
        *,
        labels: Iterable[str] = DEFAULT_LABELS,
        min_chars: int = 2,
    ) -> None:
        self.name = name
        self.labels = frozenset(labels)
        if not self.labels:
            raise ValueError(f"{name}: labels must name at least one entity label")
        if min_chars < 1:
            raise ValueError(f"{name}: min_chars must be at least 1, got {min_chars}")
        self.min_chars = min_chars

    def __call__(self, doc: Doc) -> Doc:
        """Add an entity for each untagged repeat (see the module doc). RETURNS (Doc): the same doc."""
        repeats = self.repeats(doc)
        if repeats:
            doc.ents = sorted(list(doc.ents) + repeats, key=lambda span: span.start)
        return doc

    def pipe(self, stream: Iterable[Doc], batch_size: int = 128) -> Iterable[Doc]:
        for doc in stream:
            yield self(doc)

    def repeats(self, doc: Doc) -> List[Span]:
        """RETURNS (List[Span]): the new entities, left to right, the longest name first at each token."""
        labels: Dict[Tuple[int, ...], Counter] = {}
        for ent in doc.ents:
            if ent.label_ in self.labels and len(ent.text) >= self.min_chars:
                labels.setdefault(tuple(t.orth for t in ent), Counter())[ent.label_] += 1
        return untagged_occurrences(doc, {key: counts.most_common(1)[0][0] for key, counts in labels.items()})


def untagged_occurrences(doc: Doc, names: Mapping[Tuple[int, ...], str]) -> List[Span]:
    """The occurrences of `names` (token orths -> label) that no entity of `doc` overlaps, as new entities.

    RETURNS (List[Span]): left to right, the longest name first at each token.
    """
    if not names:
        return []
    taken = [False] * len(doc)
    for ent in doc.ents:
        taken[ent.start : ent.end] = [True] * len(ent)
    orths = [t.orth for t in doc]
    lengths = sorted({len(key) for key in names}, reverse=True)
    found: List[Span] = []
    i = 0
    while i < len(doc):
        for n in lengths:
            key = tuple(orths[i : i + n])
            if len(key) == n and key in names and not any(taken[i : i + n]):
                found.append(Span(doc, i, i + n, label=names[key]))
                i += n
                break
        else:
            i += 1
    return found


@Language.factory(
    "nseen_repeated_mentions",
    default_config={"labels": list(DEFAULT_LABELS), "min_chars": 2},
    assigns=["doc.ents"],
)
def make_repeated_mentions(nlp: Language, name: str, labels: List[str], min_chars: int) -> RepeatedMentions:
    """Create the `nseen_repeated_mentions` component (see the module doc)."""
    return RepeatedMentions(nlp, name, labels=labels, min_chars=min_chars)
