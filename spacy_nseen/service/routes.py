"""The `/v1` API: annotate, link, info, health and readiness."""

import json
import os
from typing import Any, Dict, Optional, Union

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..corpus.bioc import bioc_xml
from .annotate import annotate_records, request_records
from .errors import ServiceError
from .gate import PipelineGate
from .link import checked_mentions, link_mentions
from .organisms import resolve_organisms
from .pipeline import ServicePipeline
from .schemas import (
    AnnotateRequest,
    AnnotateResponse,
    ErrorResponse,
    InfoResponse,
    LinkRequest,
    LinkResponse,
    StatusResponse,
)
from .settings import ServiceSettings

ERRORS: Dict[Union[int, str], Dict[str, Any]] = {
    code: {"model": ErrorResponse, "description": text}
    for code, text in (
        (400, "The body is not UTF-8"),
        (413, "Over a limit: body size, texts per request, text length or mentions per request"),
        (422, "A request of the wrong shape or naming an unknown label, reference set or organism"),
        (503, "Busy (with Retry-After) or still loading the pipeline"),
        (504, "The request took longer than the per-request timeout"),
    )
}

router = APIRouter(prefix="/v1")


def json_response(content: Any) -> JSONResponse:
    """RETURNS (JSONResponse): `content` as UTF-8 JSON (the records are built as plain dicts already)."""
    return JSONResponse(content)


def loaded(request: Request) -> ServicePipeline:
    """RETURNS (ServicePipeline): The worker's pipeline. RAISES (ServiceError): 503 while it loads."""
    service: Optional[ServicePipeline] = request.app.state.service
    if service is None:
        error = request.app.state.load_error
        if error is not None:
            raise ServiceError(503, f"the pipeline failed to load: {error}")
        raise ServiceError(503, "the pipeline is still loading; retry shortly", {"Retry-After": "2"})
    return service


@router.get("/health", response_model=StatusResponse, summary="Liveness: the process answers")
def health() -> Dict[str, Any]:
    return {"status": "ok"}


@router.get(
    "/ready",
    response_model=StatusResponse,
    responses={503: {"model": StatusResponse}},
    summary="Readiness: the pipeline is loaded",
)
def ready(request: Request) -> JSONResponse:
    if request.app.state.service is not None:
        return JSONResponse({"status": "ready", "worker": os.getpid()})
    error = request.app.state.load_error
    status = {"status": "failed" if error else "loading", "detail": error, "worker": os.getpid()}
    return JSONResponse(status, status_code=503)


@router.get(
    "/info", response_model=InfoResponse, responses=ERRORS, summary="The pipeline, its reference sets, organisms"
)
def info(request: Request) -> JSONResponse:
    settings: ServiceSettings = request.app.state.settings
    return json_response(loaded(request).info(settings.limits))


@router.post(
    "/annotate",
    response_model=AnnotateResponse,
    responses={200: {"content": {"application/xml": {}}, "description": "records, or BioC XML"}, **ERRORS},
    summary="Annotate texts or a BioC collection: the records `spacy-nseen annotate` writes",
)
async def annotate(body: AnnotateRequest, request: Request) -> Response:
    service = loaded(request)
    settings: ServiceSettings = request.app.state.settings
    gate: PipelineGate = request.app.state.gate
    records, bad = request_records(body, settings.limits)
    organisms = resolve_organisms(body.organisms, service.allowed_organisms)
    annotated = await gate.run(lambda: annotate_records(service, records, body.article, body.figures, organisms))
    if body.output == "bioc-xml":
        headers = {"X-Nseen-Bad-Records": json.dumps([b.to_dict() for b in bad])} if bad else None
        return Response(bioc_xml(annotated), media_type="application/xml", headers=headers)
    return json_response({"records": annotated, "bad_records": [b.to_dict() for b in bad]})


@router.post(
    "/link",
    response_model=LinkResponse,
    responses=ERRORS,
    summary="Link mention strings: ranked candidates, the NIL verdict and the organism evidence",
)
async def link(body: LinkRequest, request: Request) -> JSONResponse:
    service = loaded(request)
    settings: ServiceSettings = request.app.state.settings
    gate: PipelineGate = request.app.state.gate
    mentions = checked_mentions(service, body, settings.limits)
    results = await gate.run(lambda: link_mentions(service, mentions, body.top_k))
    return json_response({"results": results})
