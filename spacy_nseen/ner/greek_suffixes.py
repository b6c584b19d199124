"""`nseen_greek_suffixes`: a name tagged without the Greek letter written after it takes the letter (`HIF-1 alpha`).

Many names end in a Greek letter that PubMed text often spells out after a space: `HIF-1 alpha`, `Tif1 gamma`,
`PKC zeta`, `IL-1 beta`, `C/EBP beta`. The NER, trained on figure captions that write `HIF‐1α`, tags some of these
whole and stops at the letter for others; the linker then reads `HIF-1`, `Tif1` or `PKC` and finds another protein
(`HIF-1` is also an alias of SETD2). After the NER, this component extends an entity of `labels` over the Greek
letter that directly follows it, spelled (`alpha` … `omega`, any case) or as a symbol (`α`), when the entity does not
already end in one and no other entity holds that token; an entity of the letter alone (`zeta` tagged by itself)
is taken in. The linker's `spelled_greek` query form then reads `HIF-1 alpha` as `HIF-1α`.

Judged on unlabelled PubMed/PMC sentences (`results/ner/greek_suffixes/`); Bio-ID captions write Greek
letters as symbols joined to the name, so it changes little there. It keeps no state: the settings are its config.
"""

from typing import Iterable, List, Optional, Set

from spacy.language import Language
from spacy.tokens import Doc, Span

from .entity_extension import DEFAULT_LABELS, EntityExtender

GREEK_WORDS = frozenset(
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi "
    "chi psi omega".split()
)
GREEK_SYMBOLS = frozenset("αβγδεζηθικλμνξοπρστυφχψω")


def is_greek_letter(text: str) -> bool:
    """RETURNS (bool): whether a token is one Greek letter, spelled (`alpha`, `Gamma`) or as a symbol (`α`)."""
    return text.lower() in GREEK_WORDS or text in GREEK_SYMBOLS


class GreekSuffixes(EntityExtender):
    """Extends entities of some labels over the Greek letter written after them.

    labels (Iterable[str]): the labels whose entities are extended.
    """

    def __init__(
        self, nlp: Language, name: str = "nseen_greek_suffixes", *, labels: Iterable[str] = DEFAULT_LABELS
    ) -> None:
        super().__init__(name, labels)

    def takes_letter(self, doc: Doc, ent: Span, following: Optional[Span]) -> bool:
        """RETURNS (bool): whether `ent` takes the Greek letter right after it (`following`: the next entity)."""
        letter = ent.end
        if ent.label_ not in self.labels or letter >= len(doc) or not is_greek_letter(doc[letter].text):
            return False
        if is_greek_letter(doc[letter - 1].text) or not doc[letter - 1].whitespace_:  # `HIF-1alpha`: one token
            return False
        # an entity of the letter alone is taken in; a longer one that starts at the letter is left
        return following is None or following.start != letter or following.end == letter + 1

    def extended(self, doc: Doc) -> Optional[List[Span]]:
        """RETURNS (Optional[List[Span]]): the doc's entities with the extended ones, or None when none changes."""
        ents = list(doc.ents)
        out: List[Span] = []
        changed = False
        taken_in: Set[int] = set()  # indices of entities of a letter that the entity before them took in
        for i, ent in enumerate(ents):
            if i in taken_in:
                continue
            following = ents[i + 1] if i + 1 < len(ents) else None
            if not self.takes_letter(doc, ent, following):
                out.append(ent)
                continue
            out.append(Span(doc, ent.start, ent.end + 1, label=ent.label, kb_id=ent.kb_id))
            changed = True
            if following is not None and following.start == ent.end:
                taken_in.add(i + 1)
        return out if changed else None


@Language.factory(
    "nseen_greek_suffixes",
    default_config={"labels": list(DEFAULT_LABELS)},
    assigns=["doc.ents"],
)
def make_greek_suffixes(nlp: Language, name: str, labels: List[str]) -> GreekSuffixes:
    """Create the `nseen_greek_suffixes` component (see the module doc)."""
    return GreekSuffixes(nlp, name, labels=labels)
