"""`spacy-nseen serve`: the linking service (a JSON API under `/v1`, its OpenAPI description, and a curator's page
at `/`) over one loaded pipeline per worker process. Needs the `serve` extra (FastAPI, uvicorn)."""

from .settings import ServiceLimits, ServiceSettings

__all__ = ["ServiceLimits", "ServiceSettings"]
