"""kb_id → taxon of a multi-organism reference set, as the NIL features read it."""

from typing import Optional

from ..reference.reference_set import ReferenceSet


class TaxonLookup:
    """kb_id → NCBI taxon id of a multi-organism reference set (a dict-like view for `mention_features`)."""

    def __init__(self, reference_set: ReferenceSet) -> None:
        self.reference_set = reference_set

    def get(self, kb_id: str, default: Optional[int] = None) -> Optional[int]:
        taxon = self.reference_set.taxon_of(kb_id)
        return default if taxon is None else taxon
