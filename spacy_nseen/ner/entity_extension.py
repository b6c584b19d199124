"""The shape of the components that extend entities after the NER (`nseen_numbered_names`, `nseen_greek_suffixes`).

Each one reads a doc's entities and returns them with some extended, or None when none changes; the doc keeps every
other attribute. They keep no state: the labels they extend are their whole config.
"""

from typing import Iterable, List, Optional

from spacy.tokens import Doc, Span

DEFAULT_LABELS = ("PROTEIN", "GENE")


class EntityExtender:
    """Base of the entity-extending components: `extended` says how.

    name (str): the component's name, for errors.
    labels (Iterable[str]): the labels whose entities are extended (at least one).
    """

    def __init__(self, name: str, labels: Iterable[str] = DEFAULT_LABELS) -> None:
        self.name = name
        self.labels = frozenset(labels)
        if not self.labels:
            raise ValueError(f"{name}: labels must name at least one entity label")

    def extended(self, doc: Doc) -> Optional[List[Span]]:
        """RETURNS (Optional[List[Span]]): the doc's entities with the extended ones, or None when none changes."""
        raise NotImplementedError

    def __call__(self, doc: Doc) -> Doc:
        """Extend the doc's entities (see `extended`). RETURNS (Doc): the same doc."""
        ents = self.extended(doc)
        if ents is not None:
            doc.ents = ents
        return doc

    def pipe(self, stream: Iterable[Doc], batch_size: int = 128) -> Iterable[Doc]:
        for doc in stream:
            yield self(doc)
