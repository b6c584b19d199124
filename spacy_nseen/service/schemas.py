"""The API's request and response models (pydantic): what `/openapi.json` describes and what requests are
checked against. An annotate record is the record `spacy-nseen annotate` writes (`corpus.doc_output`)."""

from typing import Any, Dict, List, Literal, Optional, Tuple, Union

from pydantic import BaseModel, ConfigDict, Field

Organism = Union[int, str]  # an NCBI taxon id (9606) or a name the pipeline knows ("human")


class Entity(BaseModel):
    """One entity of a record (`doc_output.entity_dict`): offsets, text, label and the linker's fields."""

    model_config = ConfigDict(extra="allow")
    start: int
    end: int
    text: str
    label: str
    kb_id: Optional[str] = None
    kb_score: Optional[float] = None
    kb_candidates: Optional[List[Tuple[str, str, float]]] = None
    kb_taxon: Optional[int] = None
    kb_taxon_evidence: Optional[List[str]] = None
    kb_xrefs: Optional[Dict[str, str]] = None
    kb_searched: Optional[str] = None


class AnnotationRecord(BaseModel):
    """One annotated text, as `spacy-nseen annotate` writes it (`doc_output.annotated_record`)."""

    model_config = ConfigDict(extra="allow")
    id: str
    text: str
    meta: Dict[str, Any]
    entities: List[Entity]
    organisms: Optional[List[int]] = None


class AnnotateRequest(BaseModel):
    """Texts to annotate (`texts`), or one BioC collection (`bioc`), not both."""

    model_config = ConfigDict(extra="forbid")
    texts: Optional[List[str]] = Field(None, description="The texts, e.g. figure captions", examples=[["p53 in HeLa"]])
    ids: Optional[List[str]] = Field(None, description="An id per text (default: its position, from 1)")
    bioc: Optional[str] = Field(None, description="A BioC collection, XML or JSON text (one passage = one record)")
    bioc_format: Literal["auto", "xml", "json"] = Field("auto", description="The format of `bioc`")
    article: bool = Field(
        False,
        description="The texts (of a BioC collection: each document's passages) are one article's: each is read "
        "with the others as organism and abbreviation context",
    )
    figures: Optional[List[Optional[str]]] = Field(
        None, description="Per text, its figure (panels of one figure are each other's closer context)"
    )
    organisms: Optional[List[Organism]] = Field(
        None, description="The documents' organisms (taxon ids or names): only these are assigned", examples=[[9606]]
    )
    output: Literal["json", "bioc-xml"] = Field("json", description="json: the records; bioc-xml: a BioC collection")


class BadRecordOut(BaseModel):
    """A part of the input that could not be read (a BioC passage without text, invalid XML ...)."""

    position: str
    problem: str


class AnnotateResponse(BaseModel):
    """The annotated records, in input order, and the parts of the input that could not be read."""

    records: List[AnnotationRecord]
    bad_records: List[BadRecordOut] = []


class MentionIn(BaseModel):
    """A mention to link: its text, and its label (e.g. PROTEIN) or reference set (e.g. uniprot)."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(..., examples=["p53"])
    label: Optional[str] = Field(None, description="An entity label the pipeline routes, e.g. PROTEIN")
    kb: Optional[str] = Field(None, description="A reference set of the pipeline, e.g. uniprot")
    organism: Optional[Organism] = Field(None, description="The mention's organism (taxon id or name)")
    context: Optional[str] = Field(None, description="Text around the mention, read as organism evidence")


class LinkRequest(BaseModel):
    """Mentions to link, each with a label or a reference set."""

    model_config = ConfigDict(extra="forbid")
    mentions: List[MentionIn]
    top_k: Optional[int] = Field(None, ge=1, le=50, description="Candidates per mention (default: the pipeline's)")


class CandidateOut(BaseModel):
    """A ranked candidate entity: its id, the reference name that matched and its fused score."""

    kb_id: str
    name: str
    score: float


class OrganismOut(BaseModel):
    """The organism assigned to a mention and the evidence for it."""

    taxon: Optional[int]
    name: Optional[str]
    confidence: float
    evidence: List[str]


class LinkResult(BaseModel):
    """One mention linked: its candidates, best first, and the decision on the best one."""

    text: str
    kb: str
    searched: str = Field(..., description="What was searched: the mention, or the long form of an abbreviation")
    kb_id: Optional[str] = Field(None, description="The linked id; null when the decision is NIL (no match)")
    nil: bool = Field(..., description="True: no candidate is linked")
    probability: Optional[float] = Field(None, description="The NIL decision's probability that the best is right")
    score: Optional[float] = Field(None, description="The link's score (the probability, else the best score)")
    threshold: float
    candidates: List[CandidateOut]
    xrefs: Optional[Dict[str, str]] = None
    organism: Optional[OrganismOut] = None


class LinkResponse(BaseModel):
    """Per mention, in request order."""

    results: List[LinkResult]


class ReferenceSetInfo(BaseModel):
    """A reference set of the pipeline: the labels routed to it and its entry-page URL template."""

    name: str
    labels: List[str]
    url_template: str
    entities: int
    names: int
    has_organisms: bool


class OrganismInfo(BaseModel):
    """An organism callers may give: its NCBI taxon id and name."""

    taxon: int
    name: str


class InfoResponse(BaseModel):
    """The pipeline this service runs and what a request may name."""

    service_version: str
    pipeline: Dict[str, Any]
    components: List[str]
    labels: List[str]
    reference_sets: List[ReferenceSetInfo]
    organisms: List[OrganismInfo]
    restricted_organisms: List[int]
    limits: Dict[str, Any]


class StatusResponse(BaseModel):
    """Health or readiness, and the worker process that answered."""

    status: str
    detail: Optional[str] = None
    worker: Optional[int] = Field(None, description="The process id of the worker that answered")


class ErrorResponse(BaseModel):
    """Every 4xx/5xx answer: what is wrong and what to fix."""

    error: str
