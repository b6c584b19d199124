"""`python -m spacy_nseen serve --pipeline NAME_OR_PATH`: the linking service (JSON API under /v1, the page at /)
on uvicorn, one pipeline per worker process."""

import os
from pathlib import Path
from typing import List

import typer
from spacy.util import is_package
from wasabi import msg

from . import app


@app.command("serve")
def serve_command(
    pipeline: str = typer.Option(..., "--pipeline", "-p", help="Pipeline package name or path"),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (behind a reverse proxy: keep 127.0.0.1)"),
    port: int = typer.Option(8080, "--port", help="Port to bind"),
    workers: int = typer.Option(1, "--workers", "-w", help="Worker processes, each with its own pipeline"),
    max_body_bytes: int = typer.Option(2_000_000, "--max-body-bytes", help="Largest request body (413 past it)"),
    max_texts: int = typer.Option(1000, "--max-texts", help="Most texts per annotate request (413 past it)"),
    max_text_chars: int = typer.Option(100_000, "--max-text-chars", help="Longest text in characters (413)"),
    max_mentions: int = typer.Option(1000, "--max-mentions", help="Most mentions per link request (413)"),
    timeout: float = typer.Option(30.0, "--timeout", help="Seconds of pipeline work per request (504 past it)"),
    max_queue: int = typer.Option(8, "--max-queue", help="Requests waiting per worker; more get 503 + Retry-After"),
    cors_origins: List[str] = typer.Option([], "--cors-origin", help="Allow this origin by CORS (repeat; off)"),
    log_texts: bool = typer.Option(False, "--log-texts", help="Let access logs carry query strings"),
    log_level: str = typer.Option("info", "--log-level", help="debug, info, warning or error"),
) -> None:
    """Serve a pipeline: POST /v1/annotate and /v1/link, GET /v1/info, the OpenAPI description at /openapi.json
    and a curator's page at /."""
    try:
        import uvicorn

        from ..service.logs import log_config
        from ..service.settings import ENV_VAR, ServiceLimits, ServiceSettings
    except ImportError as err:
        msg.fail(f"serve needs the serve extra ({err.name} is missing): pip install 'spacy-nseen[serve]'", exits=1)
    if workers < 1:
        msg.fail("--workers must be at least 1")
        raise typer.Exit(2)
    try:
        limits = ServiceLimits(
            max_body_bytes=max_body_bytes,
            max_texts=max_texts,
            max_text_chars=max_text_chars,
            max_mentions=max_mentions,
            timeout_seconds=timeout,
            max_queue=max_queue,
        )
    except ValueError as err:
        msg.fail(str(err))
        raise typer.Exit(2) from None
    if not Path(pipeline).exists() and not is_package(pipeline):
        msg.fail(f"--pipeline {pipeline!r} is neither a path nor an installed pipeline package")
        raise typer.Exit(2)
    settings = ServiceSettings(pipeline, limits, tuple(cors_origins), log_texts, workers)
    os.environ[ENV_VAR] = settings.to_env()
    msg.info(f"serving {pipeline} on http://{host}:{port}/ with {workers} worker(s); API at /v1, docs at /docs")
    uvicorn.run(
        "spacy_nseen.service.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        access_log=False,  # the service logs its own access lines, without the texts
        log_config=log_config(log_level.upper()),
        timeout_graceful_shutdown=max(5, int(timeout) + 5),
    )
