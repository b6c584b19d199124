"""`nseen_numbered_names`: a name tagged without the number after its dash takes the number (`NAF‐1`, `SHP‐1`).

Bio-ID captions write dashes as U+2010 and other Unicode dashes. The caption tokenizer splits such a dash between
two word characters (`anti‐LC3`, `GFP‐LC3`), so `NAF‐1` is three tokens where spaCy keeps `NAF-1` (ASCII hyphen)
whole. The NER mostly tags the three tokens together (`IL‐2`), but stops at the letters for a name it does not know
(`NAF`). In the training captions, when a PROTEIN/GENE mention reaches the letter before `‐` + a number that ends
the word, the mention takes the number 653 times and stops 3 times (`siSCOC‐03`, an siRNA's number). So after the
NER this component extends an entity of `labels` that ends in a letter, directly followed by a Unicode dash and a
number (at most one letter after it: `IL‐1β`, `LAMP‐2A`) that ends the word, to the end of that number, when no
other entity holds those tokens. A dash after a digit (`Mcm2‐7`, a range) is left alone.

Measured on the held-out dev articles (`results/ner/experiments/README.md`). It keeps no state: the settings are
its whole config.
"""

import re
from typing import Iterable, List, Optional

from spacy.language import Language
from spacy.tokens import Doc, Span

from .entity_extension import DEFAULT_LABELS, EntityExtender

# the dashes the caption tokenizer splits between word characters (training/ner/bio_tokenizer.py, which the package
# does not import: tests/ner/test_numbered_names.py keeps the two the same)
UNICODE_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2212"
# the dash, a number and at most one letter, then the end of the word
NUMBER_AFTER_DASH = re.compile(rf"[{UNICODE_DASHES}][0-9]+[^\W\d_]?(?=[^\w]|$)")


class NumberedNames(EntityExtender):
    """Extends entities of some labels over the `‐number` that ends their word.

    labels (Iterable[str]): the labels whose entities are extended.
    """

    def __init__(
        self, nlp: Language, name: str = "nseen_numbered_names", *, labels: Iterable[str] = DEFAULT_LABELS
    ) -> None:
        super().__init__(name, labels)

    def number_end(self, doc: Doc, ent: Span, text: Optional[str] = None) -> int:
        """RETURNS (int): the token index the entity should end at: after its number, or `ent.end` unchanged.

        text (Optional[str]): `doc.text`, when the caller has it (spaCy joins the tokens again at each read).
        """
        text = doc.text if text is None else text
        end_char = ent.end_char
        if ent.label_ not in self.labels or not text[end_char - 1].isalpha():
            return ent.end
        match = NUMBER_AFTER_DASH.match(text, end_char)
        if match is None:
            return ent.end
        end = ent.end
        while end < len(doc) and doc[end].idx < match.end():
            end += 1
        # the number must end on a token boundary (it does with the caption tokenizer)
        return end if doc[end - 1].idx + len(doc[end - 1]) == match.end() else ent.end

    def extended(self, doc: Doc) -> Optional[List[Span]]:
        """RETURNS (Optional[List[Span]]): the doc's entities with the extended ones, or None when none changes."""
        ents = list(doc.ents)
        changed = False
        text = doc.text if ents else ""
        for i, ent in enumerate(ents):
            end = self.number_end(doc, ent, text)
            next_start = ents[i + 1].start if i + 1 < len(ents) else len(doc)
            if end > ent.end and end <= next_start:
                ents[i] = Span(doc, ent.start, end, label=ent.label, kb_id=ent.kb_id)
                changed = True
        return ents if changed else None


@Language.factory(
    "nseen_numbered_names",
    default_config={"labels": list(DEFAULT_LABELS)},
    assigns=["doc.ents"],
)
def make_numbered_names(nlp: Language, name: str, labels: List[str]) -> NumberedNames:
    """Create the `nseen_numbered_names` component (see the module doc)."""
    return NumberedNames(nlp, name, labels=labels)
