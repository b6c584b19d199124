"""The `nseen_linker` pipeline component: links `doc.ents` to reference sets by NSEEN embeddings.

For each entity whose label is mapped in `kbs`, it writes `Span._.kb_id` (a CURIE or None),
`Span._.kb_score`, `Span._.kb_candidates` (a list of `(kb_id, name, score)`), and the token-level
`ent_kb_id`, so that `ent.kb_id_` and `DocBin` carry the id too.
"""
import copyreg
import inspect
import shutil
import tempfile
import warnings
from dataclasses import asdict, fields
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Protocol, Sequence, Tuple, Union

import srsly
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import SimpleFrozenList, from_disk as util_from_disk, to_disk as util_to_disk
from spacy.vocab import Vocab
from thinc.api import Config, Model

from .text.abbreviations import abbreviation_map
from .encoder.weights_io import load_encoder_weights
from .errors import ArtifactError, NotInitializedError
from .linker.exact_ranking import read_entity_prior
from .linker.kb_linker import Candidate, KnowledgeBaseLinker, load_linker
from .linker.settings import MODES, PRECISIONS, IndexSettings, KbSettings, LinkerSettings, Mode, with_changes
from .linker.storage import ENTITY_PRIOR_FILE, META_FILE, check_prior, read_linker_meta, save_linker
from .linker.nil_decision import NilModel
from .organisms.ranking import OrganismContext
from .organisms.assign import AssignerSettings, OrganismAssigner, SpanOrganism
from .organisms.cell_lines import CellLineTable
from .reference.reference_set import ReferenceSet

DEFAULT_ENCODER_CONFIG = """
[encoder]
@architectures = "spacy_nseen.CharBiLSTMEncoder.v1"
vocab_size = 512
char_width = 64
hidden_width = 128
depth = 4
output_width = 128
dropout = 0.0
pooling = "max"
max_length = 64
batch_size = 128
precision = "fp32"
"""
DEFAULT_ENCODER = Config().from_str(DEFAULT_ENCODER_CONFIG)["encoder"]
# Empty by default: spaCy merges a user's dict into the default one, so a non-empty default would add routes
# the user did not ask for (and demand their reference sets at initialize).
DEFAULT_KBS: Dict[str, str] = {}
NO_KBS = (
    "nseen_linker: 'kbs' maps no entity label to a reference set. Configure it, e.g. "
    'nlp.add_pipe("nseen_linker", config={"kbs": {"PROTEIN": "uniprot", "CHEMICAL": "chebi"}})'
)
KB_URL_TEMPLATE = "https://identifiers.org/{}"
CELL_LINES_FILE = "cell_lines.json.gz"


# doc._.organisms: the document's organisms (set by the caller: only those are assigned; else written by the
# linker, most likely first). doc._.article_texts: other texts of the same article, read as organism evidence.
DOC_EXTENSIONS = ("organisms", "article_texts")
SPAN_EXTENSIONS = ("kb_id", "kb_score", "kb_candidates", "kb_taxon", "kb_taxon_evidence", "kb_xrefs")


def register_extensions() -> None:
    """Register the Span and Doc extensions (idempotent)."""
    for name in SPAN_EXTENSIONS:
        if not Span.has_extension(name):
            Span.set_extension(name, default=None)
    for name in DOC_EXTENSIONS:
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=None)


# The component's own settings; the search settings (every `LinkerSettings` field, same type and default) and
# the index settings (`IndexSettings`) join them below: the factory's signature and default config are made
# from those dataclasses, so they are the one source of each setting's name, type and default.
COMPONENT_DEFAULTS: Dict[str, Any] = {
    "encoder": DEFAULT_ENCODER,
    "kbs": DEFAULT_KBS,
    "top_k": 5,
    "threshold": 0.0,
    "overwrite": True,
    "mode": "hybrid",
    "kb_settings": {},
    "batch_size": 256,
    "kb_url_template": KB_URL_TEMPLATE,
    "kb_url_templates": {},
    "expand_abbreviations": True,
    "organisms": [],
    "assign_organisms": True,
    "primary_xref": {},
    "organism_settings": {},
}
SEARCH_SETTINGS = tuple(f.name for f in fields(LinkerSettings))
INDEX_SETTINGS = tuple(f.name for f in fields(IndexSettings))


def make_nseen_linker(
    nlp: Language,
    name: str,
    encoder: Model,
    kbs: Dict[str, str],
    top_k: int,
    threshold: float,
    overwrite: bool,
    mode: Mode,
    kb_settings: Dict[str, KbSettings],
    batch_size: int,
    kb_url_template: str,
    kb_url_templates: Dict[str, str],
    expand_abbreviations: bool,
    organisms: List[int],
    assign_organisms: bool,
    primary_xref: Dict[str, str],
    organism_settings: Dict[str, float],
    **settings: Any,
) -> "NseenLinker":
    """Create an `nseen_linker` (see the README for every setting; `settings` are the `LinkerSettings` and
    `IndexSettings` fields, each a typed keyword of this factory's signature)."""
    search = {k: settings.pop(k) for k in SEARCH_SETTINGS if k in settings}
    index = {k: settings.pop(k) for k in INDEX_SETTINGS if k in settings}
    if settings:
        raise TypeError(f"nseen_linker: unexpected settings {sorted(settings)}")
    try:
        linker_settings, index_settings = LinkerSettings(**search), IndexSettings(**index)
    except ValueError as err:
        raise ValueError(f"nseen_linker: {err}") from None
    return NseenLinker(
        nlp.vocab,
        encoder,
        name=name,
        kbs=kbs,
        top_k=top_k,
        threshold=threshold,
        overwrite=overwrite,
        mode=mode,
        settings=linker_settings,
        kb_settings=kb_settings,
        index_settings=index_settings,
        batch_size=batch_size,
        kb_url_template=kb_url_template,
        kb_url_templates=kb_url_templates,
        expand_abbreviations=expand_abbreviations,
        organisms=organisms,
        assign_organisms=assign_organisms,
        primary_xref=primary_xref,
        organism_settings=organism_settings,
    )


def _settings_signature() -> None:
    """Give `make_nseen_linker` one typed keyword-only parameter per LinkerSettings and IndexSettings field
    (spaCy's config system reads the signature: it validates each value's type and names a bad setting)."""
    signature = inspect.signature(make_nseen_linker)
    params = [p for p in signature.parameters.values() if p.kind != inspect.Parameter.VAR_KEYWORD]
    annotations = dict(make_nseen_linker.__annotations__)
    annotations.pop("settings", None)
    for dataclass_ in (LinkerSettings, IndexSettings):
        for f in fields(dataclass_):
            params.append(inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default, annotation=f.type))
            annotations[f.name] = f.type
    make_nseen_linker.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    make_nseen_linker.__annotations__ = annotations


_settings_signature()
Language.factory(
    "nseen_linker",
    assigns=["token.ent_kb_id", "span._.kb_id", "span._.kb_score", "span._.kb_candidates", "span._.kb_taxon",
             "span._.kb_taxon_evidence", "span._.kb_xrefs", "doc._.organisms"],
    requires=["doc.ents"],
    default_config={**COMPONENT_DEFAULTS, **LinkerSettings().to_dict(), **asdict(IndexSettings())},
    default_score_weights={"nel_micro_f": 1.0, "nel_micro_r": None, "nel_micro_p": None},
    func=make_nseen_linker,
)


def organism_confidence(span: SpanOrganism) -> float:
    """RETURNS (float): the share of the assigned taxon in the mention's organism evidence, in [0, 1]."""
    if span.taxon is None:
        return 0.0
    total = sum(max(0.0, v) for v in span.scores.values())
    return round(max(0.0, span.scores.get(span.taxon, 0.0)) / total, 4) if total > 0 else 0.0


class EntityLink(NamedTuple):
    """What the linker found for one routed entity."""

    index: int  # position in doc.ents
    kb: str
    candidates: List[Candidate]
    probability: Optional[float]  # the NIL model's probability that candidates[0] is right; None without one
    context: Optional[OrganismContext]
    evidence: Optional[List[str]]


class DocLinks(NamedTuple):
    """The links of one doc and, when organisms were assigned, the document's organisms (most likely first)."""

    links: List[EntityLink]
    organisms: Optional[List[int]]


class NseenLinker(Pipe):
    """Links entity spans to reference sets with an NSEEN encoder and Annoy index per reference set."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "nseen_linker",
        *,
        kbs: Dict[str, str],
        top_k: int = 5,
        threshold: float = 0.0,
        overwrite: bool = True,
        mode: str = "hybrid",
        settings: Optional[LinkerSettings] = None,
        kb_settings: Optional[Dict[str, Any]] = None,
        index_settings: Optional[IndexSettings] = None,
        batch_size: int = 256,
        kb_url_template: str = KB_URL_TEMPLATE,
        kb_url_templates: Optional[Dict[str, str]] = None,
        expand_abbreviations: bool = True,
        organisms: Sequence[int] = (),
        assign_organisms: bool = True,
        primary_xref: Optional[Dict[str, str]] = None,
        organism_settings: Optional[Dict[str, float]] = None,
    ) -> None:
        # A label mapped to "" is switched off (useful to override a pipeline's saved config).
        kbs = {label: kb for label, kb in kbs.items() if kb}
        if top_k < 1:
            raise ValueError(f"nseen_linker: top_k must be at least 1, got {top_k}")
        if mode not in MODES:
            raise ValueError(f"nseen_linker: mode must be one of {MODES}, got {mode!r}")
        if batch_size < 1:
            raise ValueError(f"nseen_linker: batch_size must be positive, got {batch_size}")
        register_extensions()
        self.vocab = vocab
        self.model = model
        self.name = name
        self.kbs = dict(kbs)
        self.top_k = top_k
        self.threshold = threshold
        self.overwrite = overwrite
        self.mode = mode
        self.settings = settings or LinkerSettings()
        # Per reference set changes (`KbSettings` or plain dicts from a config), kept as dicts of the set values.
        self.kb_settings: Dict[str, Dict[str, Any]] = {
            kb: dict(changes) if isinstance(changes, dict) else {k: v for k, v in asdict(changes).items() if v is not None}
            for kb, changes in (kb_settings or {}).items()
        }
        for kb in self.kb_settings:
            self.settings_for(kb)  # unknown fields and bad values fail here, not at the first doc
        self.index_settings = index_settings or IndexSettings()
        self.batch_size = batch_size
        self.kb_url_template = kb_url_template
        self.kb_url_templates = dict(kb_url_templates or {})
        for kb, template in self.kb_url_templates.items():
            if "{}" not in template:
                raise ValueError(f"nseen_linker: kb_url_templates['{kb}'] must contain '{{}}' for the id, got {template!r}")
        self.expand_abbreviations = expand_abbreviations
        if any(not isinstance(t, int) or t <= 0 for t in organisms):
            raise ValueError(f"nseen_linker: organisms must be NCBI taxon ids (positive integers), got {list(organisms)}")
        self.organisms = [int(t) for t in organisms]
        self.assign_organisms = assign_organisms
        self.primary_xref = dict(primary_xref or {})
        try:
            self.organism_settings = AssignerSettings.from_dict(organism_settings or {})
        except (TypeError, ValueError) as err:
            raise ValueError(f"nseen_linker: organism_settings: {err}") from None
        self.cell_lines: Optional[CellLineTable] = None
        self.organism_assigner: Optional[OrganismAssigner] = self._make_assigner()
        self.linkers: Dict[str, KnowledgeBaseLinker] = {}
        self._tempdir: Optional[tempfile.TemporaryDirectory] = None
        self.cfg: Dict[str, Any] = {"kbs": self.kbs}

    def settings_for(self, kb: str) -> LinkerSettings:
        """RETURNS (LinkerSettings): the search settings of one reference set: the component's, with the
        changes `kb_settings[kb]` gives (e.g. a tie-break that suits one database only)."""
        return with_changes(self.settings, self.kb_settings.get(kb, {}), f"nseen_linker: kb_settings['{kb}']")

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
        linkers: Optional[Dict[str, str]] = None,
        encoders: Optional[Dict[str, str]] = None,
        reference_sets: Optional[Dict[str, str]] = None,
        nil_models: Optional[Dict[str, Optional[str]]] = None,
        cell_lines: Optional[str] = None,
        entity_priors: Optional[Dict[str, Optional[str]]] = None,
    ) -> None:
        """Load a trained encoder and a reference set for every reference set name, and build the indexes.

        linkers (Optional[Dict[str, str]]): reference set name → a complete linker directory (index included).
        encoders (Optional[Dict[str, str]]): reference set name → a trained encoder directory.
        reference_sets (Optional[Dict[str, str]]): reference set name → a `kb_id, name, kind` TSV file.
        Each reference set needs either a linker directory, or an encoder and a reference set.
        nil_models (Optional[Dict[str, str]]): reference set name → a `nil_model.json` (e.g. one recalibrated by
            `training.tuning.tune_nil`) replacing the linker directory's own.
        cell_lines (Optional[str]): a cell line table (`training.data.build_cell_lines`) read as organism evidence.
        entity_priors (Optional[Dict[str, str]]): reference set name → "FILE.tsv:COLUMN", the per-entity prior of
            `exact_tie_break="prior"` (a TSV with a `kb_id` column, e.g. ChEBI's `star`); saved with the pipeline.
        The component's settings are the ones that link: a linker directory saved with other settings gets a
        warning that names them (its `linker.json` is a record, not a second source of settings).
        """
        if not self.kbs:
            raise ValueError(NO_KBS)
        linkers, encoders, reference_sets = linkers or {}, encoders or {}, reference_sets or {}
        unknown = (set(linkers) | set(encoders) | set(reference_sets)) - set(self.kb_names)
        if unknown:
            raise ValueError(f"nseen_linker: initialize got paths for {sorted(unknown)}, not in kbs {self.kb_names}")
        built: Dict[str, KnowledgeBaseLinker] = {}
        for kb in self.kb_names:
            if kb in linkers:
                built[kb] = self._read_linker(kb, Path(linkers[kb]), warn=True, check=False)
            elif kb in encoders and kb in reference_sets:
                encoder = self.model.copy()
                load_encoder_weights(encoder, encoders[kb])
                reference = ReferenceSet.from_tsv(reference_sets[kb])
                built[kb] = KnowledgeBaseLinker.build(
                    kb, encoder, reference, n_trees=self.n_trees, search_k=self.search_k, seed=self.seed,
                    settings=self.settings_for(kb), with_tfidf=True, build_precision=self.build_precision,
                )
            else:
                raise ValueError(
                    f"nseen_linker: no trained artifacts for the reference set '{kb}'. Give "
                    f"[initialize.components.{self.name}] linkers = {{\"{kb}\": \"path/to/linker\"}}, or both "
                    f"encoders = {{\"{kb}\": ...}} and reference_sets = {{\"{kb}\": ...}}."
                )
        for kb, path in (nil_models or {}).items():
            if not path:  # a config without a recalibrated model for this reference set
                continue
            if kb not in built:
                raise ValueError(f"nseen_linker: initialize got a NIL model for '{kb}', not in kbs {self.kb_names}")
            built[kb].nil_model = NilModel.from_disk(path)
        for kb, spec in (entity_priors or {}).items():
            if not spec:
                continue
            if kb not in built:
                raise ValueError(f"nseen_linker: initialize got an entity prior for '{kb}', not in kbs {self.kb_names}")
            prior_path, _, column = str(spec).rpartition(":")
            if not prior_path or not column:
                raise ValueError(f"nseen_linker: entity_priors['{kb}'] must be 'FILE.tsv:COLUMN', got {spec!r}")
            built[kb].entity_prior = read_entity_prior(built[kb].reference_set, prior_path, column)
        for kb, linker in built.items():
            check_prior(linker, Path(linkers.get(kb, "")) / ENTITY_PRIOR_FILE if kb in linkers else Path(f"entity_priors['{kb}']"))
        self.linkers = built
        if cell_lines:
            self.cell_lines = CellLineTable.from_disk(cell_lines)
        self.organism_assigner = self._make_assigner()

    def _make_assigner(self) -> OrganismAssigner:
        return OrganismAssigner(self.organism_settings, self.cell_lines, allowed=self.organisms or None,
                                fallback_to_allowed=bool(self.organisms))

    def add_linker(self, linker: KnowledgeBaseLinker) -> None:
        """Use an already built linker for the reference set of the same name."""
        if linker.name not in self.kb_names:
            raise ValueError(f"nseen_linker: '{linker.name}' is not a reference set in kbs {self.kb_names}")
        self.linkers[linker.name] = linker

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
                f"nseen_linker has no trained linker for {missing}: call nlp.initialize() with the paths in "
                f"[initialize.components.{self.name}], or load a saved pipeline."
            )
        docs = list(docs)
        allowed = frozenset(self.organisms) if self.organisms else None
        requests: Dict[str, List[Tuple[int, int, str, Optional[OrganismContext], Optional[List[str]]]]] = {kb: [] for kb in self.kb_names}
        out = [DocLinks([], None) for _ in docs]
        for d, doc in enumerate(docs):
            # `long form (SF)` defined in the doc: the mention SF is searched as its long form.
            long_forms = abbreviation_map([doc.text]) if self.expand_abbreviations and doc.ents else {}
            routed = [(e, ent, self.kbs[ent.label_]) for e, ent in enumerate(doc.ents)
                      if ent.label_ in self.kbs and (self.overwrite or not ent.kb_id_)]
            with_taxa = [(e, ent, kb) for e, ent, kb in routed if self.linkers[kb].reference_set.entity_taxa is not None]
            assigned: Dict[int, Tuple[Optional[int], float, List[str]]] = {}
            if with_taxa and self.assign_organisms and self.organism_assigner is not None:
                result = self.organism_assigner.assign(doc, [ent for _, ent, _ in with_taxa], organisms=doc._.organisms,
                                                       article_texts=doc._.article_texts)
                out[d] = DocLinks([], list(result.organisms))
                assigned = {e: (span.taxon, organism_confidence(span), span.evidence) for (e, _, _), span in zip(with_taxa, result.spans)}
            for e, ent, kb in routed:
                taxon, confidence, evidence = assigned.get(e, (None, 0.0, None))
                has_taxa = self.linkers[kb].reference_set.entity_taxa is not None
                context = OrganismContext(taxon, confidence, allowed) if has_taxa and (taxon is not None or allowed) else None
                requests[kb].append((d, e, long_forms.get(ent.text, ent.text), context, evidence if has_taxa else None))
        for kb, items in requests.items():
            if not items:
                continue
            linker = self.linkers[kb]
            texts = [text for _, _, text, _, _ in items]
            contexts = [context for _, _, _, context, _ in items]
            results = linker.link(texts, top_k=self.top_k, mode=self.mode, organisms=contexts)
            probabilities = linker.link_probabilities(texts, results, contexts)
            for i, ((d, e, _, context, evidence), candidates) in enumerate(zip(items, results)):
                probability = None if probabilities is None else float(probabilities[i])
                out[d].links.append(EntityLink(e, kb, candidates, probability, context, evidence))
        return out

    def set_annotations(self, docs: Iterable[Doc], predictions: List["DocLinks"]) -> None:
        """Write ids, scores, candidates, organisms and cross-references onto the entity spans and tokens."""
        for doc, prediction in zip(docs, predictions):
            if prediction.organisms is not None and doc._.organisms is None:
                doc._.organisms = list(prediction.organisms)
            if not prediction.links:
                continue
            ents = list(doc.ents)
            for link in prediction.links:
                ent = ents[link.index]
                candidates = link.candidates or []
                score = link.probability if link.probability is not None else (candidates[0].score if candidates else None)
                best = candidates[0] if candidates and score is not None and score >= self.threshold else None
                xrefs = self.linkers[link.kb].xrefs.get(best.kb_id) if best is not None else None
                kb_id = best.kb_id if best is not None else None
                primary = self.primary_xref.get(ent.label_)
                if kb_id is not None and primary and xrefs and primary in xrefs:
                    kb_id = f"{primary}:{xrefs[primary].split('|')[0]}"
                new = Span(doc, ent.start, ent.end, label=ent.label, kb_id=kb_id or "", span_id=ent.id)
                new._.kb_id = kb_id
                new._.kb_score = None if score is None else float(score)
                new._.kb_candidates = [(c.kb_id, c.name, float(c.score)) for c in candidates]
                new._.kb_taxon = link.context.taxon if link.context is not None else None
                new._.kb_taxon_evidence = list(link.evidence) if link.evidence else None
                new._.kb_xrefs = dict(xrefs) if xrefs else None
                ents[link.index] = new
            doc.ents = ents

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        """Micro P/R/F of (span, kb_id) on the gold entities (spaCy's `Scorer.score_links`)."""
        from spacy.scorer import Scorer

        return Scorer.score_links(examples, negative_labels=[""], **kwargs)

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
        ents = [{"start": e.start_char, "end": e.end_char, "label": e.label_, "kb_id": e.kb_id_,
                 "kb_url": self.kb_url(e.kb_id_, e.label_) if e.kb_id_ else "#"} for e in doc.ents]
        return {"text": doc.text, "ents": ents, "title": None}

    # Serialization ---------------------------------------------------------------------------------

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()) -> None:
        """Save the config and one linker directory per reference set."""
        path = Path(path)
        serialize: Dict[str, Callable[[Path], None]] = {
            "cfg": lambda p: srsly.write_json(
                p, {"kbs": self.kbs, "kb_names": self.kb_names, "saved": [kb for kb in self.kb_names if kb in self.linkers]}
            ),
        }
        for kb in self.kb_names:
            if kb in self.linkers:
                serialize[f"kb_{kb}"] = lambda p, kb=kb: save_linker(self.linkers[kb], p)
        if self.cell_lines is not None:
            serialize[CELL_LINES_FILE] = lambda p: self.cell_lines.to_disk(p)
        util_to_disk(path, serialize, exclude)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()) -> "NseenLinker":
        """Load what `to_disk` saved; every file is checked before the pipe is used."""
        path = Path(path)
        cfg_path = path / "cfg"
        if not cfg_path.exists():
            raise ArtifactError(cfg_path, "nseen_linker config file not found", "Save the pipeline again with nlp.to_disk().")
        try:
            saved = srsly.read_json(cfg_path).get("saved", self.kb_names)
        except (ValueError, AttributeError) as err:
            raise ArtifactError(cfg_path, f"not a valid nseen_linker config ({err})", "Save the pipeline again with nlp.to_disk().") from None
        deserialize: Dict[str, Callable[[Path], None]] = {"cfg": lambda p: None}
        # A pipe saved before it was initialised has no linker directories, and loads uninitialised.
        for kb in (kb for kb in self.kb_names if kb in saved):
            deserialize[f"kb_{kb}"] = lambda p, kb=kb: self._load_kb(kb, p)
        if (path / CELL_LINES_FILE).exists() and CELL_LINES_FILE not in exclude:
            self.cell_lines = CellLineTable.from_disk(path / CELL_LINES_FILE)
        self.organism_assigner = self._make_assigner()
        util_from_disk(path, deserialize, exclude)
        return self

    def _load_kb(self, kb: str, directory: Path) -> None:
        if not directory.exists():
            raise ArtifactError(directory, f"the linker directory of '{kb}' is missing", "Save the pipeline again with nlp.to_disk().")
        self.linkers[kb] = self._read_linker(kb, directory, warn=False, check=True)

    def _read_linker(self, kb: str, directory: Path, *, warn: bool, check: bool) -> KnowledgeBaseLinker:
        """Load a linker directory with this component's settings for `kb` (the one source of truth)."""
        settings = self.settings_for(kb)
        if warn:
            saved = LinkerSettings.from_dict(read_linker_meta(directory).get("settings", {}))
            differ = {k: v for k, v in saved.differences(settings).items() if k != "cache_size"}
            if differ:
                listed = ", ".join(f"{k}={mine!r} (component: {theirs!r})" for k, (mine, theirs) in differ.items())
                warnings.warn(f"nseen_linker: {directory / META_FILE} was saved with other settings for '{kb}': {listed}. "
                              f"The component's settings are used; set them in kb_settings.{kb} to keep the saved ones.",
                              stacklevel=3)
        # At initialize the entity prior may still come from `entity_priors`: checked after it.
        return load_linker(directory, encoder=self.model.copy(), settings=settings, search_k=self.search_k, require_prior=check)

    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        """Serialise every file of `to_disk` into one msgpack blob."""
        with tempfile.TemporaryDirectory() as tmp:
            self.to_disk(tmp, exclude=exclude)
            root = Path(tmp)
            files = {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
        return srsly.msgpack_dumps({"files": files})

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()) -> "NseenLinker":
        """Restore from `to_bytes`; the files live in a temporary directory kept as long as the pipe."""
        data = srsly.msgpack_loads(bytes_data)
        if self._tempdir is not None:
            self._tempdir.cleanup()
        self._tempdir = tempfile.TemporaryDirectory(prefix="nseen_linker_")
        root = Path(self._tempdir.name)
        for rel, content in data["files"].items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        return self.from_disk(root, exclude=exclude)

    def __reduce__(self) -> Tuple[Any, ...]:
        # spaCy's cython `Pipe.__reduce__` would pickle `__dict__` directly (Annoy indexes cannot be pickled).
        return (copyreg.__newobj__, (type(self),), self.__getstate__())

    def __getstate__(self) -> Dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k not in ("linkers", "_tempdir", "cell_lines", "organism_assigner")}
        state["_linker_bytes"] = self.to_bytes() if self.linkers else None
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        data = state.pop("_linker_bytes")
        self.__dict__.update(state)
        self.linkers = {}
        self._tempdir = None
        self.cell_lines = None
        self.organism_assigner = self._make_assigner()
        if data is not None:
            self.from_bytes(data)

    # Pipe methods that do not apply to a component without trainable spaCy weights -----------------

    def update(self, *args: Any, **kwargs: Any) -> Dict[str, float]:
        """The encoder is trained outside spaCy (see `training/`); `spacy train` leaves it unchanged."""
        return kwargs.get("losses") or {}
