"""Extra names for a reference set before it is built (`build-kb --extra-names`): a curator's accepted synonyms.

The extra names are rows of entities the names file already has, placed after its names (so a pair the file already
has keeps the file's kind); `KnowledgeBaseLinker.add_names` does the same for a built linker.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Tuple

from .reference_set import DISCOVERED_KIND, ReferenceSet


@dataclass
class ExtraNames:
    """What `with_extra_names` did.

    reference (ReferenceSet): the names, then the new extra names.
    added (Dict[str, int]): per source, the (kb_id, name) pairs added.
    present (int): extra names their entity already had (or given twice).
    unknown (List[str]): ids that are not entities of the names file, once each (their names are left out).
    """

    reference: ReferenceSet
    added: Dict[str, int] = field(default_factory=dict)
    present: int = 0
    unknown: List[str] = field(default_factory=list)


def with_extra_names(
    reference: ReferenceSet, sources: Sequence[Tuple[str, Sequence[Tuple[str, str, str]]]]
) -> ExtraNames:
    """RETURNS (ExtraNames): `reference` with the (kb_id, name, kind) triples of each (source, triples) added (an
    empty kind is `discovered`); names of unknown ids are left out and listed."""
    known = {(reference.kb_ids[int(e)], name) for name, e in zip(reference.names, reference.name_entity)}
    rows = [
        (reference.kb_ids[int(e)], name, kind)
        for name, e, kind in zip(reference.names, reference.name_entity, reference.kinds)
    ]
    result = ExtraNames(reference)
    unknown: Dict[str, None] = {}
    for source, triples in sources:
        for kb_id, name, kind in triples:
            kb_id, name = kb_id.strip(), name.strip()
            if kb_id not in reference:
                unknown[kb_id] = None
            elif (kb_id, name) in known or not name:
                result.present += 1
            else:
                known.add((kb_id, name))
                rows.append((kb_id, name, kind.strip() or DISCOVERED_KIND))
                result.added[source] = result.added.get(source, 0) + 1
    taxa = None
    if reference.entity_taxa is not None:
        taxa = {kb_id: int(t) for kb_id, t in zip(reference.kb_ids, reference.entity_taxa)}
    result.reference = ReferenceSet.from_rows(rows, taxa=taxa)
    result.unknown = list(unknown)
    return result
