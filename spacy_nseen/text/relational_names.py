"""Names that are another entity *related to* the mention: `Lc3 synthase` for `LC3`, `EGF receptor` for `EGF`.

Such a name is the mention followed by a relational head noun (the enzyme that makes it, its receptor, a protein
that binds it). Character and word similarities rank it high for the bare mention, since it holds the mention
whole plus one word, but a biologist reads it as a different molecule. `relational_extension` tells whether a
name is the mention plus such a head; the fusion's relational-name signal lowers the score of those names.
Heads that usually restate what the mention already is (`Akt kinase`, `Raf kinase`) are not in the list.
A protein *like* the mention, a protease *for* it, or a fusion of it (`Ub-like protein`,
`Ub-specific protease 30`, `UB fusion protein 1`: UFD1 for `Ub`) is another molecule too.
"""

import re
from typing import FrozenSet

# Head nouns (and two-word heads) that make "X <head>" a different molecule from X.
RELATIONAL_HEADS: FrozenSet[str] = frozenset(
    {
        "synthase",
        "synthetase",
        "ligase",
        "convertase",
        "receptor",
        "receptors",
        "ligand",
        "inhibitor",
        "activator",
        "regulator",
        "modulator",
        "antagonist",
        "agonist",
        "substrate",
        "adaptor",
        "adapter",
        "transporter",
        "exchanger",
        "chaperone",
        "homolog",
        "binding protein",
        "interacting protein",
        "associated protein",
        "binding factor",
        "interacting factor",
        "associated factor",
        "activating protein",
        "activating enzyme",
        "converting enzyme",
        "cleaving enzyme",
        "kinase kinase",
        "inducible protein",
        "induced protein",
        "regulated protein",
        "responsive protein",
        "receptor kinase",
        "receptor ligand",
        "receptor antagonist",
        "like protein",
        "specific protease",
        "specific peptidase",
        "fusion protein",
    }
)
# A trailing member number, letter or Greek letter of the related name (`… interacting protein 1`,
# `… receptor 2A`, `NF-kappa-B inhibitor alpha`).
_GREEK = "alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|omicron|pi|rho|sigma|tau|upsilon|phi|chi|psi|omega"
_MEMBER = re.compile(rf"(?: (?:\d+[a-z]?|[a-z]|[ivx]+|(?:{_GREEK})\d*))?$")
_SEPARATORS = re.compile(r"[\s\-_/]+")
_LEADING = re.compile(r"[^\s\-_/]*")


def normalized(text: str) -> str:
    """RETURNS (str): `text` case-folded, with runs of spaces, hyphens, underscores and slashes as one space."""
    return _SEPARATORS.sub(" ", text.casefold()).strip()


def leading_word(text: str) -> str:
    """RETURNS (str): the case-folded start of `text` up to its first separator (what every name that
    `relational_extension` accepts for this mention starts with, in any case)."""
    match = _LEADING.match(text.casefold().lstrip())
    assert match is not None  # the pattern matches the empty string too
    return match.group()


def relational_extension(mention: str, name: str) -> bool:
    """RETURNS (bool): whether `name` is `mention` followed by a relational head (`RELATIONAL_HEADS`), e.g.
    ("LC3", "Lc3 synthase"), ("p53", "p53-binding protein 1"); False for the name itself or any other name."""
    if len(name) <= len(mention) or not mention.strip():
        return False
    query, full = normalized(mention), normalized(name)
    if not full.startswith(query + " "):
        return False
    rest = full[len(query) + 1 :]
    member = _MEMBER.search(rest)
    head = rest[: member.start()] if member is not None and member.start() > 0 else rest
    return head in RELATIONAL_HEADS
