"""A lower-case word against a symbol written in capitals: `simple` is not SIMPLE (LITAF), `his` is not HIS.

Exact matching folds case (`Vps30` finds yeast `VPS30`), so an English word that a protein has as a capitalised
symbol links to it with the score of an exact match: `simple` → SIMPLE (LITAF), `cats` → CATS, `thank` → THANK,
`sqstm` → the entry mnemonic SQSTM. Authors write a capitalised symbol in capitals; a word in lower case is that name only when
some name it matches is written in lower case or with one capital (`insulin` is `Insulin`, fly `yki` is `yki`).
A gene's primary symbol is the exception: oncogenes and kinases are often written in lower case (`src`, `myb`,
`lck`), while the English words among the matches are aliases and entry mnemonics (SIMPLE, THANK, BEGIN, CATS).
`case_mismatch` says when an exact match breaks that rule; the decision stage does not keep such a link where the
reference set's `link_case_mismatch` is off (`Fusion.verdicts`). An ortholog or close name the organism evidence
puts in the match's place (`ubiquitin` → fly RpS27A through the human `Ubiquitin`) is judged by the names the
mention matched, not by the entity it ends on.
"""

from typing import Iterable, Tuple

# name kinds of a gene's own symbol: a lower-case word matching one of these is taken as that gene (`src`, `myb`)
PRIMARY_KINDS = frozenset({"gene_primary"})


def is_lowercase_word(text: str) -> bool:
    """RETURNS (bool): whether `text` is a word in lower case: two or more letters, nothing else (`simple`, `yki`;
    not `p53`, `c-myc`, `Akt`)."""
    text = text.strip()
    return len(text) >= 2 and text.isalpha() and text.islower()


def written_as_word(name: str) -> bool:
    """RETURNS (bool): whether a name is written as a word may be, with at most one capital (`insulin`,
    `Insulin`, `yki`), not as a symbol in capitals (`SIMPLE`, `YAP1`, `TH`)."""
    return sum(ch.isupper() for ch in name) <= 1


def case_mismatch(mention: str, matched: Iterable[Tuple[str, str]]) -> bool:
    """RETURNS (bool): whether an exact match reads a lower-case word as a capitalised symbol: the mention is a
    lower-case word, it matches names exactly (`matched`: the (name, kind) of each name whose key equals the
    mention's), and none of them is written as a word or is a gene's primary symbol (`PRIMARY_KINDS`): `simple`
    matches only the alias SIMPLE, `sqstm` only the entry mnemonic SQSTM; `insulin` matches `Insulin`, fly `yki`
    matches `yki`, `src` the primary symbol SRC (oncogenes are often written so)."""
    if not is_lowercase_word(mention):
        return False
    found = list(matched)
    return bool(found) and not any(written_as_word(name) or kind in PRIMARY_KINDS for name, kind in found)
