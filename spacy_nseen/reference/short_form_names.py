"""A reference set with the short forms of its names added as names of their own (`LC3` for `... LC3 B`).

Figure captions name proteins by forms their reference names only contain: the symbol inside a descriptive
name (`Autophagy-related protein LC3 B` -> `LC3 B`) and the family stem without its paralog letter (`LC3`,
`ATG9`, `GSK3`). `text.short_forms` derives them from the names alone; here they become rows of the kinds
`short_symbol` and `short_stem`. They serve the dense and lexical signals; they never match a mention exactly
(`derived_rows`, excluded by the linker's exact tier): `HSP70`, the stem of `HSP70B`, must not take the exact
short-cut from `Hsp70`, a name of HSPA1A in text. A stem names a small family: it is a name
of each member (up to `max_stem_entities` per organism), as the gold ids of `LC3` are all of MAP1LC3A/B/C.
"""

from typing import FrozenSet, List, Tuple

from ..text.short_forms import STEM_KIND, SYMBOL_KIND, reference_short_forms
from .reference_set import ReferenceSet

SHORT_FORM_KINDS = {SYMBOL_KIND: "short_symbol", STEM_KIND: "short_stem"}
_DERIVED_KINDS = frozenset(SHORT_FORM_KINDS.values())


def is_derived_kind(kind: str) -> bool:
    """RETURNS (bool): whether a name of this kind is a derived short form (never an exact match)."""
    return kind in _DERIVED_KINDS


def derived_rows(reference: ReferenceSet) -> FrozenSet[int]:
    """RETURNS (FrozenSet[int]): the rows of `reference` that are derived short forms (empty for most sets)."""
    return frozenset(row for row, kind in enumerate(reference.kinds) if kind in _DERIVED_KINDS)


def short_form_rows(reference: ReferenceSet, max_stem_entities: int = 6) -> List[Tuple[str, str, str]]:
    """RETURNS (List[Tuple[str, str, str]]): (kb_id, short form, kind) rows that are not yet names of the set."""
    groups = None if reference.entity_taxa is None else reference.entity_taxa.tolist()
    forms = reference_short_forms(
        reference.names, reference.name_entity.tolist(), max_stem_entities=max_stem_entities, entity_group=groups
    )
    rows: List[Tuple[str, str, str]] = []
    seen = set()
    for row, form, kind in forms:
        kb_id = reference.kb_ids[int(reference.name_entity[row])]
        if (kb_id, form) not in seen:
            seen.add((kb_id, form))
            rows.append((kb_id, form, SHORT_FORM_KINDS[kind]))
    return rows


def with_short_forms(reference: ReferenceSet, max_stem_entities: int = 6) -> ReferenceSet:
    """RETURNS (ReferenceSet): the names of `reference` (same entity order and taxa), then their short forms."""
    original = [
        (reference.kb_ids[int(e)], name, kind)
        for name, e, kind in zip(reference.names, reference.name_entity, reference.kinds)
    ]
    taxa = None
    if reference.entity_taxa is not None:
        taxa = {kb_id: int(t) for kb_id, t in zip(reference.kb_ids, reference.entity_taxa)}
    return ReferenceSet.from_rows(original + short_form_rows(reference, max_stem_entities), taxa=taxa)
