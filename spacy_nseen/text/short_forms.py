"""Short forms that authors write for a reference name, derived from the name alone.

Two kinds, both common in figure captions and absent from the reference names:
- the **embedded symbol** of a descriptive name: `Autophagy-related protein LC3 A` -> `LC3 A`,
  `Phosphatidate phosphatase PPAPDC1A` -> `PPAPDC1A` (the name's last token when it reads as a
  symbol: at least two letters, an upper-case one, and a digit; a final one-letter token joins it);
- the **family stem** of a symbol or name that ends in a digit and one upper-case letter, the
  paralog letter dropped: `ATG9A` -> `ATG9`, `LC3 B` -> `LC3`, `GSK3B` -> `GSK3`, `RAB5C` -> `RAB5`.
  A stem names a family of a few entities, not one: the pairs step labels it below 1 and leaves out
  stems that are names of other entities (`ACVR1B` -> `ACVR1`, a protein of its own).
"""

import re
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

SYMBOL_KIND = "symbol"
STEM_KIND = "stem"
_PARALOG_SUFFIX = re.compile(r"^(?P<stem>.*\d)[ -]?[A-Z]$")
_LETTER = re.compile(r"[A-Za-z]")
_TOKEN = re.compile(r"\S+")


def is_symbol_like(token: str) -> bool:
    """`LC3`, `PPAPDC1A`, `Cep57R`: two letters or more, one of them upper-case, and a digit."""
    letters = _LETTER.findall(token)
    return len(letters) >= 2 and any(c.isupper() for c in letters) and any(c.isdigit() for c in token)


def embedded_symbol(name: str) -> Optional[str]:
    """The symbol at the end of a descriptive name, or None.

    name (str): A reference name.
    RETURNS (Optional[str]): `LC3 A` for `MAP1A/MAP1B LC3 A`, `KLC3` for `Kinesin light chain KLC3`;
        None for a one-token name or a name that does not end in a symbol.
    """
    spans = [m.span() for m in _TOKEN.finditer(name)]
    tokens = [name[start:end] for start, end in spans]
    if len(tokens) < 2:
        return None
    if len(tokens) >= 3 and len(tokens[-1]) == 1 and tokens[-1].isupper() and is_symbol_like(tokens[-2]):
        return name[spans[-2][0] : spans[-1][1]]  # as written, so the form is always part of the name
    return tokens[-1] if is_symbol_like(tokens[-1]) else None


def family_stem(name: str) -> Optional[str]:
    """The name without its paralog letter, or None.

    name (str): A symbol or name.
    RETURNS (Optional[str]): `ATG9` for `ATG9A`, `LC3` for `LC3 B`, `Late cornified envelope protein 2`
        for `Late cornified envelope protein 2B`; None when the name does not end in a digit and one
        upper-case letter, or when the stem has fewer than two letters (`130B`).
    """
    match = _PARALOG_SUFFIX.match(name)
    if match is None:
        return None
    stem = match.group("stem").rstrip(" -")
    return stem if len(_LETTER.findall(stem)) >= 2 else None


def short_forms(name: str) -> List[Tuple[str, str]]:
    """The distinct short forms of a name, each with its kind (`symbol` or `stem`).

    RETURNS (List[Tuple[str, str]]): e.g. for `Autophagy-related protein LC3 A`:
        [(`LC3 A`, symbol), (`Autophagy-related protein LC3`, stem), (`LC3`, stem)].
    """
    out: List[Tuple[str, str]] = []
    seen = {name}

    def add(form: Optional[str], kind: str) -> None:
        if form and form not in seen:
            seen.add(form)
            out.append((form, kind))

    symbol = embedded_symbol(name)
    add(symbol, SYMBOL_KIND)
    add(family_stem(name), STEM_KIND)
    if symbol is not None:
        add(family_stem(symbol), STEM_KIND)
    return out


def reference_short_forms(
    names: Iterable[str],
    name_entity: Iterable[int],
    *,
    min_stem_entities: int = 2,
    max_stem_entities: int = 6,
    entity_group: Optional[Sequence[int]] = None,
) -> List[Tuple[int, str, str]]:
    """The short forms of every reference name that do not contradict the reference set.

    names (Iterable[str]): Reference names, one per row.
    name_entity (Iterable[int]): The entity index of each row.
    min_stem_entities (int): A stem needs a family: at least this many entities of one group (`ATG9` of ATG9A
        and ATG9B; not `HSP70` of HSP70B alone, which is another protein than the `Hsp70` of the text).
    max_stem_entities (int): A stem shared by more entities of one group than this is left out (too vague).
    entity_group (Optional[Sequence[int]]): A group per entity (e.g. its taxon), so that a stem's entities
        are counted per organism (`LC3` names three human and two mouse entities); None: one group.
    RETURNS (List[Tuple[int, str, str]]): (row, short form, kind). A short form that is, case folded, a
        name of any entity (`ACVR1` of `ACVR1B`, or a name of the row's own entity) is left out.
    """
    rows = list(zip(names, name_entity))
    group_of = (lambda entity: 0) if entity_group is None else (lambda entity: int(entity_group[entity]))
    reference_names = {name.casefold() for name, _ in rows}
    candidates = [
        (row, form, kind, int(entity)) for row, (name, entity) in enumerate(rows) for form, kind in short_forms(name)
    ]
    entities_of_stem: Dict[Tuple[str, int], Set[int]] = {}
    for _, form, kind, entity in candidates:
        if kind == STEM_KIND:
            entities_of_stem.setdefault((form.casefold(), group_of(entity)), set()).add(entity)
    kept: List[Tuple[int, str, str]] = []
    for row, form, kind, entity in candidates:
        key = form.casefold()
        if key in reference_names:
            continue
        if (
            kind == STEM_KIND
            and not min_stem_entities <= len(entities_of_stem[(key, group_of(entity))]) <= max_stem_entities
        ):
            continue
        kept.append((row, form, kind))
    return kept
