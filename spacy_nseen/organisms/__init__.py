"""Organism assignment for protein mentions: which NCBI taxon a mention belongs to, from its context.

Knows nothing of the linker: `OrganismAssigner.assign(doc, spans, organisms=..., article_texts=...)`
returns a taxon and readable evidence per span and the document's organisms.
"""

from .assign import AssignerSettings, DocumentOrganisms, OrganismAssigner, SpanOrganism
from .cell_lines import CellLineTable

__all__ = ["AssignerSettings", "CellLineTable", "DocumentOrganisms", "OrganismAssigner", "SpanOrganism"]
