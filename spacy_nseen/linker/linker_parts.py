"""What the ranking reads of a linker (`LinkerParts`): its reference set, indexes, settings and models.

`fusion`, the signals and `storage` are written against this protocol, not against `KnowledgeBaseLinker`, so
that the linker module imports them and none of them imports it back.
"""

from typing import Dict, Mapping, Optional, Protocol, Sequence

import numpy
from thinc.api import Model

from ..organisms.orthologs import OrthologTable
from ..reference.reference_set import ReferenceSet
from ..retrieval.char_tfidf import CharNgramTfidf
from ..retrieval.exact_names import ExactNameIndex
from ..retrieval.name_index import AnnoyNameIndex
from ..retrieval.word_tfidf import NameTokenIndex
from .nil_decision import NilModel
from .settings import LinkerSettings
from .taxon_lookup import TaxonLookup


class LinkerParts(Protocol):
    """The parts of one reference set's linker that searching, ranking, deciding and saving read."""

    name: str
    encoder: Model
    reference_set: ReferenceSet
    index: AnnoyNameIndex
    tfidf: Optional[CharNgramTfidf]
    tokens: Optional[NameTokenIndex]
    exact_names: ExactNameIndex
    nil_model: Optional[NilModel]
    entity_prior: Optional[numpy.ndarray]
    xrefs: Mapping[str, Dict[str, str]]
    name_sources: Dict[str, int]

    @property
    def settings(self) -> LinkerSettings: ...

    def encode(self, strings: Sequence[str]) -> numpy.ndarray: ...

    def ortholog_table(self) -> OrthologTable: ...

    def tie_break_priors(self) -> Optional[numpy.ndarray]: ...

    def taxon_lookup(self) -> TaxonLookup: ...
