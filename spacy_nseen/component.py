"""The `nseen_linker` pipeline component: links `doc.ents` to reference sets by NSEEN embeddings.

For each entity whose label is mapped in `kbs`, it writes `Span._.kb_id` (a CURIE or None),
`Span._.kb_score`, `Span._.kb_candidates` (a list of `(kb_id, name, score)`), and the token-level
`ent_kb_id`, so that `ent.kb_id_` and `DocBin` carry the id too. This module holds the Pipe and its factory;
their parts are in `spacy_nseen.pipe` (config, extensions, routing, organism context, the predict path,
annotations, serialization), re-exported here.
"""

import tempfile
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Type, Union

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import SimpleFrozenList
from spacy.vocab import Vocab
from thinc.api import Model

from .errors import NotInitializedError
from .linker.kb_linker import KnowledgeBaseLinker
from .linker.settings import IndexSettings, LinkerSettings
from .ner.glued_names import cut_tokens
from .organisms.assign import AssignerSettings, OrganismAssigner
from .organisms.cell_lines import CellLineTable
from .parts.decision import LinkDecision, make_nil_decision
from .parts.index import IndexPart, make_annoy_index
from .parts.kb_loaders import KbLoader, LoadRequest
from .parts.knowledge_bases import NO_KBS, URL_TEMPLATE, KnowledgeBaseBlock, read_kbs
from .parts.organisms import OrganismPart, make_organism_assigner
from .parts.ranker import Ranker, make_hybrid_ranker
from .parts.scorer import score_links
from .pipe.annotations import DocLinks, EntityLink, write_links
from .pipe.article_context import ArticleCache, ArticlePlace
from .pipe.config import default_config
from .pipe.extensions import article_of, context_texts, explicit_context, register_extensions
from .pipe.predict import Mention, Request, link_requests, prepare_requests
from .pipe.routing import route_entities
from .pipe.serialization import (
    pipe_from_bytes,
    pipe_from_disk,
    pipe_state,
    pipe_to_bytes,
    pipe_to_disk,
    restore_state,
)
from .text.abbreviation_lexicon import AbbreviationLexicon

__all__ = ["NseenLinker", "make_nseen_linker"]


def _new_pipe(cls: Type["NseenLinker"]) -> "NseenLinker":
    """RETURNS (NseenLinker): an instance of `cls` made without `__init__` (unpickling fills it with `__setstate__`)."""
    return cls.__new__(cls)


@Language.factory(
    "nseen_linker",
    assigns=[
        "token.ent_kb_id",
        "span._.kb_id",
        "span._.kb_score",
        "span._.kb_candidates",
        "span._.kb_taxon",
        "span._.kb_taxon_evidence",
        "span._.kb_xrefs",
        "span._.kb_searched",
        "doc._.organisms",
    ],
    requires=["doc.ents"],
    default_config=default_config(),
    default_score_weights={"nel_micro_f": 1.0, "nel_micro_r": None, "nel_micro_p": None},
)
def make_nseen_linker(
    nlp: Language,
    name: str,
    encoder: Model,
    kbs: Dict[str, Any],
    ranker: Ranker,
    index: IndexPart,
    organisms: OrganismPart,
    decision: LinkDecision,
    scorer: Optional[Callable[..., Dict[str, Any]]],
    top_k: int,
    overwrite: bool,
    batch_size: int,
) -> "NseenLinker":
    """Create an `nseen_linker`.

    encoder (Model): the character encoder (`spacy_nseen.CharBiLSTMEncoder.v1`); its weights come with each linker.
    kbs (Dict[str, Any]): one block per reference set: its `labels`, `url_template`, `primary_xref`, and
        optionally its own `ranker` and `decision` (`parts.knowledge_bases`).
    ranker (Ranker): how names are searched and ranked (`spacy_nseen.HybridRanker.v1`).
    index (IndexPart): how the indexes are built and searched (`spacy_nseen.AnnoyIndex.v1`).
    organisms (OrganismPart): the organism assigner (`spacy_nseen.OrganismAssigner.v1`).
    decision (LinkDecision): whether the best candidate is linked (`spacy_nseen.NilDecision.v1`).
    scorer (Optional[Callable]): the scorer `nlp.evaluate` calls (`spacy_nseen.linker_scorer.v1`).
    top_k (int): candidates written per entity (`ent._.kb_candidates`).
    overwrite (bool): relink entities that already have a `kb_id`.
    batch_size (int): docs linked per encoder pass.
    A config of spacy_nseen 0.1.0 (flat settings) is upgraded by `spacy-nseen upgrade-config` (`parts.legacy`).
    """
    return NseenLinker(
        nlp.vocab,
        encoder,
        name=name,
        kbs=kbs,
        ranker=ranker,
        index=index,
        organisms=organisms,
        decision=decision,
        scorer=scorer,
        top_k=top_k,
        overwrite=overwrite,
        batch_size=batch_size,
    )


class NseenLinker(Pipe):
    """Links entity spans to reference sets with an NSEEN encoder and Annoy index per reference set.

    The parts are those of `make_nseen_linker`; each reference set may have its own ranker and decision."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "nseen_linker",
        *,
        kbs: Mapping[str, Union[KnowledgeBaseBlock, Mapping[str, Any]]],
        ranker: Optional[Ranker] = None,
        index: Optional[IndexPart] = None,
        organisms: Optional[OrganismPart] = None,
        decision: Optional[LinkDecision] = None,
        scorer: Optional[Callable[..., Dict[str, Any]]] = score_links,
        top_k: int = 5,
        overwrite: bool = True,
        batch_size: int = 256,
    ) -> None:
        if top_k < 1:
            raise ValueError(f"nseen_linker: top_k must be at least 1, got {top_k}")
        if batch_size < 1:
            raise ValueError(f"nseen_linker: batch_size must be positive, got {batch_size}")
        register_extensions()
        self.vocab = vocab
        self.model = model
        self.name = name
        self.kb_blocks: Dict[str, KnowledgeBaseBlock] = read_kbs(kbs)
        self.kbs: Dict[str, str] = {label: kb for kb, block in self.kb_blocks.items() for label in block.labels}
        self.ranker = ranker or make_hybrid_ranker()
        self.index_part = index or make_annoy_index()
        self.organism_part = organisms or make_organism_assigner()
        self.decision = decision or make_nil_decision()
        self.scorer = scorer
        self.top_k = top_k
        self.overwrite = overwrite
        self.batch_size = batch_size
        self.settings = self._search_settings(self.ranker, self.decision, "ranker")
        for kb in self.kb_blocks:
            self.settings_for(kb)  # a bad value of a set's own ranker fails here, not at the first doc
        self.cell_lines: Optional[CellLineTable] = None
        self.abbreviation_lexicon: Optional[AbbreviationLexicon] = None
        self.organism_assigner: Optional[OrganismAssigner] = self.make_assigner()
        self.article_cache = ArticleCache()  # the articles of the docs linked last, each read once
        self.linkers: Dict[str, KnowledgeBaseLinker] = {}
        # the files of a pipe restored from bytes (`from_bytes`, unpickling): kept as long as the pipe
        self.bytes_dir: Optional[tempfile.TemporaryDirectory] = None
        self.cfg: Dict[str, Any] = {"kbs": self.kbs}

    # The parts of one reference set -----------------------------------------------------------------

    def ranker_for(self, kb: str) -> Ranker:
        """RETURNS (Ranker): the ranker of one reference set (its own, else the component's)."""
        block = self.kb_blocks.get(kb)
        return block.ranker if block is not None and block.ranker is not None else self.ranker

    def decision_for(self, kb: str) -> LinkDecision:
        """RETURNS (LinkDecision): the decision of one reference set (its own, else the component's)."""
        block = self.kb_blocks.get(kb)
        return block.decision if block is not None and block.decision is not None else self.decision

    def _search_settings(self, ranker: Ranker, decision: LinkDecision, where: str) -> LinkerSettings:
        try:
            return LinkerSettings(
                **{"search_threads": self.index_part.search_threads, **ranker.search, **decision.search_settings()}
            )
        except (TypeError, ValueError) as err:
            raise ValueError(f"nseen_linker: {where}: {err}") from None

    def settings_for(self, kb: str) -> LinkerSettings:
        """RETURNS (LinkerSettings): the search settings of one reference set, made from its ranker, decision and
        the index's search threads."""
        return self._search_settings(self.ranker_for(kb), self.decision_for(kb), f"kbs.{kb}")

    # Read-only views of the parts, for the code that reads a pipeline's settings -----------------------

    @property
    def threshold(self) -> Optional[float]:
        """RETURNS (Optional[float]): the component decision's threshold (None: each linker's NIL model's own)."""
        return self.decision.threshold

    @property
    def mode(self) -> str:
        return self.ranker.mode

    @property
    def index_settings(self) -> IndexSettings:
        return self.index_part.settings

    @property
    def n_trees(self) -> int:
        return self.index_settings.n_trees

    @property
    def search_k(self) -> int:
        return self.index_settings.search_k

    @property
    def seed(self) -> int:
        return self.index_settings.seed

    @property
    def build_precision(self) -> str:
        return self.index_settings.build_precision

    @property
    def organisms(self) -> List[int]:
        """RETURNS (List[int]): the taxa the assigner may choose from (empty: any)."""
        return list(self.organism_part.allowed)

    @property
    def assign_organisms(self) -> bool:
        return self.organism_part.assign

    @property
    def organism_settings(self) -> AssignerSettings:
        return self.organism_part.settings

    @property
    def expand_abbreviations(self) -> bool:
        """RETURNS (bool): whether any reference set's ranker searches long forms of short forms."""
        return any(self.ranker_for(kb).expand_abbreviations for kb in self.kb_names)

    @property
    def kb_url_template(self) -> str:
        return URL_TEMPLATE

    @property
    def kb_url_templates(self) -> Dict[str, str]:
        return {kb: block.url_template for kb, block in self.kb_blocks.items()}

    @property
    def primary_xref(self) -> Dict[str, str]:
        """RETURNS (Dict[str, str]): label → the database whose id is written as `kb_id` (every set's)."""
        return {label: db for block in self.kb_blocks.values() for label, db in block.primary_xref.items()}

    @property
    def kb_names(self) -> List[str]:
        """RETURNS (List[str]): the reference set names, in the order they first appear in `kbs`."""
        return list(dict.fromkeys(self.kbs.values()))

    @property
    def is_initialized(self) -> bool:
        return bool(self.kbs) and all(kb in self.linkers for kb in self.kb_names)

    def initialize(
        self,
        get_examples: Optional[Callable[[], Iterable[Example]]] = None,
        *,
        nlp: Optional[Language] = None,
        kb_loaders: Optional[Dict[str, KbLoader]] = None,
        cell_lines: Optional[str] = None,
        abbreviations: Optional[str] = None,
    ) -> None:
        """Load the linker of every reference set, each by its own registered loader (`parts.kb_loaders`).

        kb_loaders (Optional[Dict[str, KbLoader]]): reference set name → a loader, e.g.
            `spacy_nseen.LinkerDirectory.v1` (a linker directory, optionally a recalibrated NIL model and an entity
            prior) or `spacy_nseen.EncoderAndNames.v1` (an encoder and a names TSV: the index is built here).
        cell_lines (Optional[str]): a cell line table (`training.data.build_cell_lines`) read as organism evidence.
        abbreviations (Optional[str]): an abbreviation lexicon (`training.data.build_abbreviations`): the long forms
            of short forms that the doc and its context do not define (`Ub` → `ubiquitin`); saved with the pipeline.
        The component's settings are the ones that link: a linker directory saved with other settings gets a
        warning that names them (its `linker.json` is a record, not a second source of settings).
        """
        if not self.kbs:
            raise ValueError(NO_KBS)
        loaders = dict(kb_loaders or {})
        unknown = set(loaders) - set(self.kb_names)
        if unknown:
            raise ValueError(f"nseen_linker: kb_loaders for {sorted(unknown)}, not in kbs {self.kb_names}")
        missing = [kb for kb in self.kb_names if kb not in loaders]
        if missing:
            kb = missing[0]
            raise ValueError(
                f"nseen_linker: no loader for the reference set(s) {missing}. Give "
                f"[initialize.components.{self.name}.kb_loaders.{kb}] with "
                f'@misc = "spacy_nseen.LinkerDirectory.v1" and path = "path/to/linker" (or in Python: '
                f'kb_loaders={{"{kb}": linker_directory("path/to/linker")}}).'
            )
        built: Dict[str, KnowledgeBaseLinker] = {}
        for kb in self.kb_names:
            request = LoadRequest(kb, self.model.copy(), self.settings_for(kb), self.index_settings)
            built[kb] = loaders[kb](request)
        self.linkers = built
        if cell_lines:
            self.cell_lines = CellLineTable.from_disk(cell_lines)
        if abbreviations:
            self.abbreviation_lexicon = AbbreviationLexicon.from_disk(abbreviations)
        self.organism_assigner = self.make_assigner()

    def make_assigner(self) -> OrganismAssigner:
        return OrganismAssigner(
            self.organism_settings,
            self.cell_lines,
            allowed=self.organisms or None,
            fallback_to_allowed=bool(self.organisms),
        )

    def add_linker(self, linker: KnowledgeBaseLinker) -> None:
        """Use an already built linker for the reference set of the same name."""
        if linker.name not in self.kb_names:
            raise ValueError(f"nseen_linker: '{linker.name}' is not a reference set in kbs {self.kb_names}")
        self.linkers[linker.name] = linker

    def add_names(
        self, kb: str, names: Sequence[Tuple[str, str, str]], source: str, *, skip_unknown: bool = False
    ) -> int:
        """Add names to the entities of one reference set's linker, without a rebuild
        (`KnowledgeBaseLinker.add_names`); saved with the pipeline (`nlp.to_disk`).

        kb (str): the reference set ("uniprot", ...). names: (kb_id, name, kind) triples (a review file's
            `accepted_names(kb)`). source (str): where they come from (the review file's corpus).
        RETURNS (int): the (kb_id, name) pairs added.
        """
        if kb not in self.linkers:
            raise ValueError(f"nseen_linker has no linker for '{kb}' (it has {sorted(self.linkers)})")
        return self.linkers[kb].add_names(names, source, skip_unknown=skip_unknown)

    def __call__(self, doc: Doc) -> Doc:
        return next(self.pipe([doc]))

    def pipe(self, stream: Iterable[Doc], *, batch_size: Optional[int] = None) -> Iterator[Doc]:
        """Link the entities of a stream of docs, one encoder pass per batch and reference set."""
        size = batch_size or self.batch_size
        stream = iter(stream)
        while True:
            docs = list(islice(stream, size))
            if not docs:
                return
            self.set_annotations(docs, self.predict(docs))
            yield from docs

    def predict(self, docs: Iterable[Doc]) -> List[DocLinks]:
        """Find candidates for every mapped entity: organism evidence, search, NIL probability.

        RETURNS (List[DocLinks]): per doc, its routed entities' links and the document's organisms.
        """
        if not self.kbs:
            raise NotInitializedError(NO_KBS)
        if not self.is_initialized:
            missing = [kb for kb in self.kb_names if kb not in self.linkers]
            raise NotInitializedError(
                f"nseen_linker has no trained linker for {missing}: call nlp.initialize() with their loaders in "
                f"[initialize.components.{self.name}.kb_loaders], or load a saved pipeline."
            )
        docs = list(docs)
        allowed = frozenset(self.organisms) if self.organisms else None
        assigner = self.organism_assigner if self.assign_organisms else None
        requests: Dict[str, List[Tuple[int, int, Request]]] = {kb: [] for kb in self.kb_names}
        out = [DocLinks([], None) for _ in docs]
        for d, doc in enumerate(docs):
            routed = route_entities(doc, self.kbs, self.overwrite)
            cut = cut_tokens(doc)
            mentions = [
                Mention(
                    r.span.start_char, r.span.end_char, r.span.text, r.kb, cut.get((r.span.start_char, r.span.end_char))
                )
                for r in routed
            ]
            article = self.article_place(doc)
            prepared = prepare_requests(
                doc.text,
                mentions,
                self._has_taxa,
                assigner,
                expand_abbreviations=self.expand_abbreviations,
                organisms=doc._.organisms,
                article_texts=context_texts(doc, "article_texts") if article is None else None,
                figure_texts=context_texts(doc, "figure_texts") if article is None else None,
                allowed=allowed,
                lexicon=self.abbreviation_lexicon,
                article=article,
            )
            out[d] = DocLinks([], prepared.organisms)
            for r, request in zip(routed, prepared.requests):
                requests[r.kb].append((d, r.ent_index, request))
        for kb, items in requests.items():
            kb_requests = [request for _, _, request in items]
            if not self.ranker_for(kb).expand_abbreviations:
                kb_requests = [request._replace(long_form=None, guessed=False) for request in kb_requests]
            linked = link_requests(
                self.linkers[kb],
                kb_requests,
                top_k=self.top_k,
                mode=self.ranker_for(kb).mode,
                decision=self.decision_for(kb),
            )
            for (d, e, request), link in zip(items, linked):
                searched = link.searched if link.searched != request.text else None
                out[d].links.append(
                    EntityLink(
                        e,
                        kb,
                        link.candidates,
                        link.verdict.probability,
                        request.context,
                        request.evidence,
                        link.verdict,
                        searched,
                    )
                )
        return out

    def article_place(self, doc: Doc) -> Optional[ArticlePlace]:
        """RETURNS (Optional[ArticlePlace]): the doc's article (`doc._.article`), read once for all of its docs;
        None when it has none or was given its context as `doc._.article_texts`/`figure_texts` lists."""
        article = article_of(doc)
        if article is None or explicit_context(doc, "article_texts") or explicit_context(doc, "figure_texts"):
            return None
        return ArticlePlace(self.article_cache.get(article["texts"], article.get("figures")), article["index"])

    def _has_taxa(self, kb: str) -> bool:
        return self.linkers[kb].reference_set.entity_taxa is not None

    def set_annotations(self, docs: Iterable[Doc], predictions: List[DocLinks]) -> None:
        """Write ids, scores, candidates, organisms and cross-references onto the entity spans and tokens."""
        xrefs = {kb: linker.xrefs for kb, linker in self.linkers.items()}
        for doc, prediction in zip(docs, predictions):
            write_links(doc, prediction, xrefs, self.primary_xref)

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): the configured scorer's figures (default: micro P/R/F of (span, kb_id))."""
        if self.scorer is None:
            raise ValueError(f"{self.name}: no scorer is configured ([components.{self.name}.scorer])")
        return self.scorer(examples, **kwargs)

    def displacy_options(self) -> Dict[str, str]:
        """RETURNS (Dict[str, str]): options for `displacy.render(doc, style="ent", options=...)` with entry links
        (one template for every id; see `displacy_data` when reference sets have their own)."""
        return {"kb_url_template": self.kb_url_template}

    def kb_url(self, kb_id: str, label: str) -> str:
        """RETURNS (str): the entry page of an id linked under `label`: the template of its reference set in
        `kb_url_templates`, else `kb_url_template`."""
        return self.kb_url_templates.get(self.kbs.get(label, ""), self.kb_url_template).format(kb_id)

    def displacy_data(self, doc: Doc) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): the doc's entities for `displacy.render(data, style="ent", manual=True)`,
        each linked id pointing to the entry page of its own reference set."""
        ents = [
            {
                "start": e.start_char,
                "end": e.end_char,
                "label": e.label_,
                "kb_id": e.kb_id_,
                "kb_url": self.kb_url(e.kb_id_, e.label_) if e.kb_id_ else "#",
            }
            for e in doc.ents
        ]
        return {"text": doc.text, "ents": ents, "title": None}

    # Serialization ---------------------------------------------------------------------------------

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()) -> None:
        """Save the config and one linker directory per reference set (`pipe.serialization`)."""
        pipe_to_disk(self, path, exclude)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()) -> "NseenLinker":
        """Load what `to_disk` saved; every file is checked before the pipe is used."""
        pipe_from_disk(self, path, exclude)
        return self

    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        """Serialise every file of `to_disk` into one msgpack blob."""
        return pipe_to_bytes(self, exclude)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()) -> "NseenLinker":
        """Restore from `to_bytes`; the files live in a temporary directory kept as long as the pipe."""
        pipe_from_bytes(self, bytes_data, exclude)
        return self

    def __reduce__(self) -> Tuple[Any, ...]:
        # spaCy's cython `Pipe.__reduce__` would pickle `__dict__` directly (Annoy indexes cannot be pickled).
        return (_new_pipe, (type(self),), self.__getstate__())

    def __getstate__(self) -> Dict[str, Any]:
        return pipe_state(self)

    def __setstate__(self, state: Dict[str, Any]) -> None:
        restore_state(self, state)

    # Pipe methods that do not apply to a component without trainable spaCy weights -----------------

    def update(self, *args: Any, **kwargs: Any) -> Dict[str, float]:
        """The encoder is trained outside spaCy (see `training/`); `spacy train` leaves it unchanged."""
        return kwargs.get("losses") or {}
