"""The pipeline a worker serves: loaded once per process (`corpus.worker.load_pipeline`), with its linker
component and what `/v1/info` reports."""

from dataclasses import asdict
from typing import Any, Dict, List

from spacy.language import Language

from ..about import __version__
from ..component import NseenLinker
from ..corpus.worker import load_pipeline
from .organisms import organism_table
from .settings import ServiceLimits


class ServicePipeline:
    """A loaded pipeline and its `nseen_linker`.

    nlp (Language): The pipeline.
    """

    def __init__(self, nlp: Language) -> None:
        linkers = [pipe for _, pipe in nlp.pipeline if isinstance(pipe, NseenLinker)]
        if not linkers:
            raise ValueError(f"the pipeline has no nseen_linker component (components: {nlp.pipe_names})")
        self.nlp = nlp
        self.linker: NseenLinker = linkers[0]

    @classmethod
    def load(cls, name: str) -> "ServicePipeline":
        """RETURNS (ServicePipeline): The pipeline `name` (a package or a path), loaded with one compute thread."""
        return cls(load_pipeline(name, n_threads=1))

    @property
    def allowed_organisms(self) -> List[int]:
        """RETURNS (List[int]): The taxa the pipeline links (empty: any)."""
        return self.linker.organisms

    def info(self, limits: ServiceLimits) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): The `/v1/info` answer: pipeline meta, labels, reference sets, organisms."""
        meta = self.nlp.meta
        sets = []
        for kb in self.linker.kb_names:
            block = self.linker.kb_blocks[kb]
            reference = self.linker.linkers[kb].reference_set
            sets.append(
                {
                    "name": kb,
                    "labels": list(block.labels),
                    "url_template": block.url_template,
                    "entities": reference.n_entities,
                    "names": len(reference),
                    "has_organisms": reference.entity_taxa is not None,
                }
            )
        return {
            "service_version": __version__,
            "pipeline": {k: meta.get(k) for k in ("lang", "name", "version", "spacy_version", "description")},
            "components": list(self.nlp.pipe_names),
            "labels": sorted(self.linker.kbs),
            "reference_sets": sets,
            "organisms": [{"taxon": t, "name": n} for t, n in organism_table().items()],
            "restricted_organisms": self.allowed_organisms,
            "limits": asdict(limits),
        }
