"""The app factory: one FastAPI app per worker process, its pipeline loaded once in the background (readiness
says when), the limits' middleware, error answers that say what to fix, CORS only when origins are given."""

import asyncio
import logging
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Dict, List, Optional

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from ..about import __version__
from .errors import ServiceError
from .gate import PipelineGate
from .middleware import AccessLogMiddleware, BodyLimitMiddleware
from .page import STATIC
from .page import router as page_router
from .pipeline import ServicePipeline
from .routes import router as api_router
from .settings import ServiceSettings
from .spread import SpreadMiddleware

LOG = logging.getLogger("spacy_nseen.service")
DESCRIPTION = (
    "Link biomedical entity mentions (proteins → UniProt, chemicals → ChEBI) with an spacy_nseen pipeline. "
    "`POST /v1/annotate` returns the records `spacy-nseen annotate` writes; `POST /v1/link` links mention strings."
)


def validation_message(errors: List[Dict[str, Any]]) -> str:
    """RETURNS (str): Pydantic's errors as one message: `where: what` per error (at most 5)."""
    parts = []
    for error in errors[:5]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "body"
        message = str(error.get("msg", "invalid"))
        if error.get("type") == "json_invalid":
            where = f"body at character {where}" if where.isdigit() else "body"
            reason = (error.get("ctx") or {}).get("error", "")
            message = f"not valid JSON ({reason})" if reason else "not valid JSON"
        parts.append(f"{where}: {message}")
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "; ".join(parts) + more


async def service_error(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ServiceError)
    return JSONResponse({"error": error.message}, status_code=error.status, headers=error.headers)


async def invalid_request(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    return JSONResponse({"error": validation_message(list(error.errors()))}, status_code=422)


async def unexpected_error(_: Request, error: Exception) -> JSONResponse:
    LOG.exception("unexpected error", exc_info=error)
    return JSONResponse({"error": "internal error: the service's log has the details"}, status_code=500)


def load_in_background(app: FastAPI, name: str) -> "asyncio.Future[None]":
    """Load the pipeline on the pipeline thread; readiness turns 200 when it is loaded."""

    def load() -> None:
        try:
            app.state.service = ServicePipeline.load(name)
            LOG.info("pipeline %s loaded", name)
        except Exception as err:  # reported by /v1/ready and every request, not a crash of the worker
            app.state.load_error = f"{type(err).__name__}: {err}"
            LOG.exception("pipeline %s failed to load", name)

    return asyncio.wrap_future(app.state.gate.executor.submit(load))


def create_app(settings: ServiceSettings, service: Optional[ServicePipeline] = None) -> FastAPI:
    """Build the service's app.

    settings (ServiceSettings): The pipeline, limits, CORS origins and logging.
    service (Optional[ServicePipeline]): A pipeline already loaded (tests); None: load `settings.pipeline` at
        startup, in the background.
    RETURNS (FastAPI): The app.
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loading = load_in_background(app, settings.pipeline) if app.state.service is None else None
        try:
            yield
        finally:
            if loading is not None and not loading.done():
                loading.cancel()
            app.state.gate.close()

    app = FastAPI(
        title="spacy_nseen linking service",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # FastAPI's pages load their scripts from a CDN; /docs is the package's own
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.service = service
    app.state.load_error = None
    app.state.gate = PipelineGate(settings.limits)
    app.include_router(api_router)
    app.include_router(page_router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_exception_handler(ServiceError, service_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(Exception, unexpected_error)
    app.add_middleware(BodyLimitMiddleware, max_body_bytes=settings.limits.max_body_bytes)
    if settings.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins), allow_methods=["GET", "POST"])
    app.add_middleware(SpreadMiddleware, gate=app.state.gate, workers=settings.workers)
    app.add_middleware(AccessLogMiddleware, log_texts=settings.log_texts)
    return app


def app_from_env() -> FastAPI:
    """RETURNS (FastAPI): The app of `ServiceSettings.from_env()`: what each uvicorn worker builds."""
    return create_app(ServiceSettings.from_env())
