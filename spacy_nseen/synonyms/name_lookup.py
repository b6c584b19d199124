"""Which entities a string names: the reference set's names by their loose key (`text.normalization.loose_key`).

A mention whose loose key is a name of some entity (`PLC-gamma-2` for `PLCγ2`) is known to the linker's exact tier;
only the others are candidates for new synonyms. Derived short forms (`reference.short_form_names.derived_rows`)
are not names here, as they are not exact names for the linker.
"""

from typing import Dict, FrozenSet, List, Optional

from ..reference.reference_set import ReferenceSet
from ..reference.short_form_names import derived_rows
from ..text.normalization import loose_key

PREFERRED_KINDS = ("recommended", "name", "primary")


class NameLookup:
    """Loose key → the entities with a name of that key.

    reference_set (ReferenceSet): the entities and names.
    """

    def __init__(self, reference_set: ReferenceSet) -> None:
        skipped = derived_rows(reference_set)
        entities: Dict[str, set] = {}
        self.display: Dict[str, str] = {}
        preferred: set = set()
        kb_ids = reference_set.kb_ids
        for row, name in enumerate(reference_set.names):
            if row in skipped:
                continue
            key = loose_key(name)
            if not key:
                continue
            kb_id = kb_ids[int(reference_set.name_entity[row])]
            entities.setdefault(key, set()).add(kb_id)
            if reference_set.kinds[row] in PREFERRED_KINDS and kb_id not in preferred:
                self.display[kb_id] = name
                preferred.add(kb_id)
            elif kb_id not in self.display:
                self.display[kb_id] = name
        self.entities: Dict[str, FrozenSet[str]] = {key: frozenset(ids) for key, ids in entities.items()}
        self.names_by_entity: Dict[str, List[str]] = {}
        for row, name in enumerate(reference_set.names):
            if row not in skipped:
                self.names_by_entity.setdefault(kb_ids[int(reference_set.name_entity[row])], []).append(name)

    def entities_of(self, text: str) -> FrozenSet[str]:
        """RETURNS (FrozenSet[str]): the entities `text` names (empty: not a name of any entity)."""
        return self.entities.get(loose_key(text), frozenset())

    def is_name(self, text: str) -> bool:
        """RETURNS (bool): whether `text` is a name of some entity."""
        return bool(self.entities_of(text))

    def names_entity(self, text: str, kb_id: str) -> bool:
        """RETURNS (bool): whether `text` is a name of the entity `kb_id`."""
        return kb_id in self.entities_of(text)

    def display_name(self, kb_id: str) -> Optional[str]:
        """RETURNS (Optional[str]): a readable name of an entity (its recommended or first name)."""
        return self.display.get(kb_id)
