"""Which entities of a doc the `nseen_linker` links, and to which reference set (`kbs`: label → set)."""

from typing import Dict, List, NamedTuple

from spacy.tokens import Doc, Span


class Routed(NamedTuple):
    """An entity routed to a reference set."""

    ent_index: int  # position in doc.ents
    span: Span
    kb: str


def route_entities(doc: Doc, kbs: Dict[str, str], overwrite: bool) -> List[Routed]:
    """RETURNS (List[Routed]): the entities whose label is mapped in `kbs` (with `overwrite` off, those without
    a kb_id yet), in the order of doc.ents."""
    return [
        Routed(e, ent, kbs[ent.label_])
        for e, ent in enumerate(doc.ents)
        if ent.label_ in kbs and (overwrite or not ent.kb_id_)
    ]
