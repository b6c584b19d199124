"""Names that add a member suffix to the mention: how one organism names the counterparts of another's gene.

Mammalian genes named after a yeast gene often carry a member suffix: yeast `Atg16` is `ATG16L1` (alias
`ATG16L`) in human and mouse, `Sec31` is `SEC31A`, `Sec22` is `SEC22B`, `Fis` is `FIS1`. When a mention matches
exactly only names of organisms other than the one it was assigned to, such a name of the assigned organism is
the counterpart a biologist means (`OrganismSignal.over_exact`).
"""

import re
from typing import Sequence

import numpy

from ..text.normalization import loose_key

# What may follow the mention: "L", "like", then at most one digit and one letter a–d (`L1`, `A`, `1`, `like2`).
MEMBER_SUFFIX = re.compile(r"(?:l|like)?[0-9]?[a-d]?")
# Shorter mentions (loose key) are too ambiguous to extend (`H2` + `A` is another histone).
MIN_MENTION_LENGTH = 3


def has_member_suffix(mention: str, name: str) -> bool:
    """Whether `name` is `mention` plus a member suffix, compared by loose key (`Atg16` → `ATG16L`, `Atg-16` →
    `ATG16L1`, `Sec31` → `SEC31A`; not `Atg16` → `ATG16` or `Atg1` → `ATG101`).

    mention (str): the mention as written. name (str): a reference name.
    RETURNS (bool): True when the name's loose key starts with the mention's, at least `MIN_MENTION_LENGTH` long,
        and the rest is a non-empty member suffix.
    """
    return bool(member_suffixed(mention, [name])[0])


def member_suffixed(mention: str, names: Sequence[str]) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): bool, for each name, `has_member_suffix(mention, name)` (the mention's key computed
    once)."""
    base = loose_key(mention)
    found = numpy.zeros(len(names), dtype=bool)
    if len(base) < MIN_MENTION_LENGTH:
        return found
    for i, name in enumerate(names):
        key = loose_key(name)
        found[i] = (
            len(key) > len(base) and key.startswith(base) and MEMBER_SUFFIX.fullmatch(key[len(base) :]) is not None
        )
    return found
