"""Whether a mention is a word of one of an entity's longer names.

An alias shared by several entities usually abbreviates one of them, and that one often says so in its longer
names: `S6` is an HGNC alias of RPS6 and PSMC4, and only RPS6 is "40S ribosomal protein S6"; `p38` is a name of
five human proteins, and MAPK14 alone is "MAP kinase p38 alpha". `ExactTier` reads this as a rank key among
exact matches (`linker.exact_ranking`).

Words are the runs of letters and digits of the case-folded text: "MAP kinase p38 alpha" has the words
`map kinase p38 alpha`; the mention's words must appear in a name, consecutive and in order, and the name must
have more words than the mention (the mention itself is not a longer name); discovered names (a curator's synonyms,
`linker.added_names`) are not read. A name about another molecule does
not count: the mention plus a relational head (`PTB-like protein` is PTBP2, not PTB: `text.relational_names`), or
the mention after "of", "to", "for" or "with" (`Neurally-enriched homolog of PTB`).
"""

import re
from collections import OrderedDict
from typing import FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

import numpy

from ..text.relational_names import relational_extension
from .reference_set import DISCOVERED_KIND, ReferenceSet

WORD = re.compile(r"[^\W_]+")
# A mention after one of these words is what the name relates to, not what it names.
RELATING_WORDS: FrozenSet[str] = frozenset({"of", "to", "for", "with"})
# (entity, mention) answers of `NameWords.longer_name_entities` kept (the oldest dropped first).
MAX_ANSWERS = 50_000


def words(text: str) -> List[str]:
    """RETURNS (List[str]): the case-folded runs of letters and digits of a text."""
    return WORD.findall(text.casefold())


def contains_words(name_words: Sequence[str], mention_words: Sequence[str]) -> bool:
    """RETURNS (bool): whether `mention_words` appear consecutively in a longer `name_words`, not right after a
    relating word (`RELATING_WORDS`)."""
    n = len(mention_words)
    if n == 0 or len(name_words) <= n:
        return False
    target = list(mention_words)
    return any(
        name_words[i] == target[0]
        and list(name_words[i : i + n]) == target
        and (i == 0 or name_words[i - 1] not in RELATING_WORDS)
        for i in range(len(name_words) - n + 1)
    )


def names_the_mention(name: str, mention: str, mention_words: Sequence[str]) -> bool:
    """RETURNS (bool): whether `name` is a longer name holding the mention as words, and not a name of a molecule
    related to it (`relational_extension`)."""
    return contains_words(words(name), mention_words) and not relational_extension(mention, name)


class NameWords:
    """The names of each entity of a reference set, for `longer_name_entities` (its row index is built on first
    use)."""

    def __init__(self, reference_set: ReferenceSet) -> None:
        self.reference_set = reference_set
        self._index: Optional[Tuple[numpy.ndarray, numpy.ndarray]] = None
        self._answers: OrderedDict[Tuple[int, str], bool] = OrderedDict()  # (entity, mention) → answer

    def rows_of(self, entity: int) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the name rows of one entity (not its discovered names, added from review files:
        the key reads the reference set's own names)."""
        if self._index is None:
            name_entity = numpy.asarray(self.reference_set.name_entity, dtype=numpy.int64)
            kinds = self.reference_set.kinds
            rows = numpy.flatnonzero(numpy.fromiter((k != DISCOVERED_KIND for k in kinds), bool, len(kinds)))
            order = rows[numpy.argsort(name_entity[rows], kind="stable")]
            counts = numpy.bincount(name_entity[rows], minlength=self.reference_set.n_entities)
            self._index = (order, numpy.concatenate([[0], numpy.cumsum(counts)]))
        order, starts = self._index
        return order[starts[entity] : starts[entity + 1]]

    def clear(self) -> None:
        """Forget the answers kept (`longer_name_entities`)."""
        self._answers.clear()

    def longer_name_entities(self, entities: Iterable[int], mention: str) -> Set[int]:
        """RETURNS (Set[int]): those of `entities` one of whose longer names holds the mention's words (the
        mention is split into words once for all of them; each entity's answer for a mention is kept, as the same
        mention is ranked again under other organism contexts: `linker.search_cache`)."""
        mention_words = words(mention)
        if not mention_words:
            return set()
        first, names = mention_words[0], self.reference_set.names
        found = set()
        for entity in entities:
            known = self._answers.get((entity, mention))
            if known is None:
                known = False
                for row in self.rows_of(entity):
                    name = names[int(row)]
                    # the first word as a substring is needed, and a far cheaper test than splitting the name
                    if first in name.casefold() and names_the_mention(name, mention, mention_words):
                        known = True
                        break
                self._answers[(entity, mention)] = known
                while len(self._answers) > MAX_ANSWERS:
                    self._answers.popitem(last=False)
            if known:
                found.add(entity)
        return found
