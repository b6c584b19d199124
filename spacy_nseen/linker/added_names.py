"""Names added to a built linker (`KnowledgeBaseLinker.add_names`): curated synonyms, without a rebuild.

A name is added to an entity the reference set already has, as a new row after the last: the reference set and the
exact-match keys take it as any name (the keys are merged into the sorted arrays); the dense search, the character
TF-IDF and the word index keep it in a small side block searched exactly beside the built index
(`retrieval.added_rows`), its vector encoded once and saved with the linker (`added_names_file`), its TF-IDF rows
weighted with the built vocabulary and idf. The built parts are not changed, so a mention no added name is close to
gets the links it got before. Names of kind `discovered` (a curator's accepted synonyms: `synonyms.review_file`)
can be weighed by the ranking (`LinkerSettings.discovered_penalty`).

Unknown ids are an error naming them (`UnknownIdsError`), unless the caller asks to skip them; a (kb_id, name)
pair the linker already has is not added again, unless it is a derived short form (`LC3` of MAP1LC3B: searched,
never an exact match), which takes the given kind and so becomes an exact name.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Sequence, Tuple

import numpy

from ..errors import NseenError
from ..reference.reference_set import DISCOVERED_KIND, ReferenceSet
from ..reference.short_form_names import is_derived_kind
from ..retrieval.exact_names import ExactNameIndex
from .linker_parts import LinkerParts

MAX_LISTED = 10  # unknown ids named in an error message


class UnknownIdsError(NseenError, ValueError):
    """Names given for ids that are not entities of the linker's reference set.

    kb_ids (List[str]): the unknown ids, once each, in the order given.
    """

    def __init__(self, linker_name: str, kb_ids: List[str]) -> None:
        self.kb_ids = kb_ids
        listed = ", ".join(kb_ids[:MAX_LISTED]) + (
            f" and {len(kb_ids) - MAX_LISTED} more" if len(kb_ids) > MAX_LISTED else ""
        )
        super().__init__(
            f"{len(kb_ids)} id(s) are not entities of '{linker_name}': {listed}. Check that the names are for this "
            "knowledge base (the review file's kb column), or skip them (skip_unknown=True, add-names --skip-unknown)"
        )


@dataclass
class NamePlan:
    """What adding some names would do.

    new (List[Tuple[int, str, str]]): (entity, name, kind) of each name to add, once each, in the order given.
    promoted (List[Tuple[int, str]]): (row, kind) of names the entity has as a derived short form only (searched,
        never an exact match: `reference.short_form_names`), which take the given kind and become exact names.
    present (int): names given that their entity already has (or given twice).
    unknown (List[str]): ids that are not entities of the reference set, once each.
    n_unknown_names (int): the names given for them.
    """

    new: List[Tuple[int, str, str]] = field(default_factory=list)
    promoted: List[Tuple[int, str]] = field(default_factory=list)
    present: int = 0
    unknown: List[str] = field(default_factory=list)
    n_unknown_names: int = 0


def plan_names(linker: LinkerParts, names: Sequence[Tuple[str, str, str]]) -> NamePlan:
    """RETURNS (NamePlan): the names of `(kb_id, name, kind)` triples that are new to their entities (an empty kind
    is `discovered`); ValueError naming a triple whose name or id is empty or holds a tab or line break."""
    reference = linker.reference_set
    plan = NamePlan()
    unknown: Dict[str, None] = {}
    seen = set()
    for i, triple in enumerate(names):
        if len(triple) != 3:
            raise ValueError(f"names[{i}] is {triple!r}, not a (kb_id, name, kind) triple")
        kb_id, name, kind = (str(part).strip() for part in triple)
        if not kb_id or not name:
            raise ValueError(f"names[{i}] = {triple!r}: the kb_id and the name must not be empty")
        if any(c in name or c in kb_id or c in kind for c in "\t\r\n"):
            raise ValueError(f"names[{i}] = {triple!r}: a tab or line break cannot be part of a name, id or kind")
        entity = reference.entity_index(kb_id)
        if entity is None:
            unknown[kb_id] = None
            plan.n_unknown_names += 1
            continue
        rows = [
            row
            for row in linker.exact_names.strict_rows(name)
            if int(reference.name_entity[row]) == entity and reference.names[row] == name
        ]
        if (entity, name) in seen or any(not is_derived_kind(reference.kinds[row]) for row in rows):
            plan.present += 1
            continue
        seen.add((entity, name))
        if rows:  # a derived short form of the entity: it becomes a name of the given kind
            plan.promoted.append((rows[0], kind or DISCOVERED_KIND))
        else:
            plan.new.append((entity, name, kind or DISCOVERED_KIND))
    plan.unknown = list(unknown)
    return plan


def parts_with_names(
    linker: LinkerParts, new: Sequence[Tuple[int, str, str]], promoted: Sequence[Tuple[int, str]] = ()
) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): the linker's parts with the `new` (entity, name, kind) rows added after its last
    name and the `promoted` (row, kind) rows of another kind: `reference_set`, `exact_names` and copies of `index`,
    `tfidf`, `tokens` with their side blocks (the linker's own parts are not changed)."""
    old = linker.reference_set
    if promoted:
        kinds = list(old.kinds)
        for row, kind in promoted:
            kinds[row] = kind
        old = ReferenceSet(old.kb_ids, old.names, old.name_entity, kinds, old.entity_taxa)
    if not new:
        exact = linker.exact_names
        return {"reference_set": old, "exact_names": ExactNameIndex(old.names, exact.strict, exact.loose)}
    entities = [entity for entity, _, _ in new]
    names = [name for _, name, _ in new]
    first_row = len(old)
    reference = old.with_names(entities, names, [kind for _, _, kind in new])
    vectors = numpy.asarray(linker.encode(names), dtype=numpy.float32)
    return {
        "reference_set": reference,
        "exact_names": linker.exact_names.extended(reference.names, first_row),
        "index": linker.index.with_added(vectors),
        "tfidf": None if linker.tfidf is None else linker.tfidf.with_added_names(names),
        "tokens": None if linker.tokens is None else linker.tokens.with_added_names(names),
    }


def discovered_rows(kinds: Sequence[str]) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): bool per name, whether its kind is `discovered`."""
    return numpy.fromiter((kind == DISCOVERED_KIND for kind in kinds), dtype=bool, count=len(kinds))


def names_metadata(kinds: Sequence[str], sources: Dict[str, int], n_added: int) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): what a linker's metadata says of its discovered names: how many (kind
    `discovered`), how many came from each source (a review file's corpus; added with `add_names` or built with
    `build-kb --extra-names`), and how many are kept in the side block (added to the built linker)."""
    return {
        "n_names": int(discovered_rows(kinds).sum()),
        "sources": dict(sorted(sources.items())),
        "n_added_after_build": int(n_added),
    }
