"""Collect the rows of a reference set: (kb_id, name, kind), de-duplicated and counted."""
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple


@dataclass
class ReferenceRows:
    """The rows of one reference set, in insertion order.

    Names are stripped of surrounding whitespace; empty names are dropped and
    counted; a repeated (kb_id, name) keeps its first row and is counted.

    rows (List[Tuple[str, str, str]]): (kb_id, name, kind).
    families (List[Tuple[str, str]]): (family_id, kb_id), distinct.
    stars (Dict[str, int]): kb_id -> ChEBI star level, where known.
    taxa (Dict[str, int]): kb_id -> NCBI taxon id (multi-organism UniProt sets; empty otherwise).
    n_empty (int): Empty or whitespace-only names dropped.
    n_duplicate (int): Repeated (kb_id, name) rows dropped.
    n_unmapped (int): Names dropped because their id is not a known entity.
    sources (Dict[str, Dict[str, int]]): Per extra name source, what its rows became (added, already
        present, mapped from a secondary id, dropped as obsolete).
    """

    rows: List[Tuple[str, str, str]] = field(default_factory=list)
    families: List[Tuple[str, str]] = field(default_factory=list)
    stars: Dict[str, int] = field(default_factory=dict)
    taxa: Dict[str, int] = field(default_factory=dict)
    n_empty: int = 0
    n_duplicate: int = 0
    n_unmapped: int = 0
    sources: Dict[str, Dict[str, int]] = field(default_factory=dict)
    _seen: Dict[Tuple[str, str], int] = field(default_factory=dict, repr=False)  # (kb_id, name) -> its row
    _seen_families: Set[Tuple[str, str]] = field(default_factory=set, repr=False)

    def add(self, kb_id: str, name: str, kind: str) -> bool:
        """Add a name of an entity.

        kb_id (str): The entity's CURIE.
        name (str): The name; tabs and newlines are replaced by spaces.
        kind (str): The kind of name (recommended, synonym, ...).
        RETURNS (bool): Whether a row was added.
        """
        if "\t" in name or "\n" in name or "\r" in name:
            name = " ".join(name.split())
        else:
            name = name.strip()
        if not name:
            self.n_empty += 1
            return False
        key = (kb_id, name)
        if key in self._seen:
            self.n_duplicate += 1
            return False
        self._seen[key] = len(self.rows)
        self.rows.append((kb_id, name, kind))
        return True

    def kind_of(self, kb_id: str, name: str) -> Optional[str]:
        """RETURNS (Optional[str]): the kind of the row (kb_id, name), or None if there is none."""
        row = self._seen.get((kb_id, name))
        return None if row is None else self.rows[row][2]

    def set_kind(self, kb_id: str, name: str, kind: str) -> None:
        """Change the kind of an existing row (e.g. an alternative name that is the entity's gene symbol).

        RAISES (KeyError): when the entity has no row with this name.
        """
        row = self._seen[(kb_id, name)]
        self.rows[row] = (kb_id, name, kind)

    def add_family(self, family_id: str, kb_id: str) -> None:
        """Add a family membership (repeats are ignored).

        family_id (str): e.g. "HGNC-family:1053" or a ChEBI is_a parent "CHEBI:60027".
        kb_id (str): The member entity's CURIE.
        """
        key = (family_id, kb_id)
        if key not in self._seen_families:
            self._seen_families.add(key)
            self.families.append(key)

    def entity_ids(self) -> List[str]:
        """RETURNS (List[str]): The distinct kb_ids, in first-row order."""
        return list(dict.fromkeys(kb_id for kb_id, _, _ in self.rows))

    def statistics(self, top: Optional[int] = 10) -> Dict[str, object]:
        """Count entities, names, names per entity and ambiguous names.

        top (Optional[int]): How many of the most ambiguous names to list.
        RETURNS (Dict[str, object]): The statistics (JSON-serialisable).
        """
        per_entity = Counter(kb_id for kb_id, _, _ in self.rows)
        entities_per_name = Counter(name for _, name, _ in self.rows)
        ambiguous = {n: c for n, c in entities_per_name.items() if c > 1}
        counts = sorted(per_entity.values())
        n_entities = len(counts)
        return {
            "entities": n_entities,
            "names": len(self.rows),
            "distinct_names": len(entities_per_name),
            "names_per_entity_mean": round(len(self.rows) / n_entities, 3) if n_entities else 0.0,
            "names_per_entity_median": counts[n_entities // 2] if n_entities else 0,
            "names_per_entity_max": counts[-1] if n_entities else 0,
            "entities_with_one_name": sum(1 for c in counts if c == 1),
            "ambiguous_names": len(ambiguous),
            "ambiguous_name_rows": sum(ambiguous.values()),
            "most_ambiguous_names": [
                [n, c] for n, c in Counter(ambiguous).most_common(top or 0)
            ],
            "dropped_empty_names": self.n_empty,
            "dropped_duplicate_rows": self.n_duplicate,
            "dropped_unmapped_names": self.n_unmapped,
            "kinds": dict(Counter(kind for _, _, kind in self.rows).most_common()),
            "families": len({f for f, _ in self.families}),
            "family_memberships": len(self.families),
            "entities_in_families": len({k for _, k in self.families}),
            "entities_with_star": len(self.stars),
            **({"extra_name_sources": self.sources} if self.sources else {}),
        }
