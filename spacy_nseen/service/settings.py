"""What a service runs with: the pipeline, the limits a public deployment needs, CORS and logging. One
`ServiceSettings` per server; it travels to uvicorn's worker processes as one environment variable (JSON)."""

import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Tuple

ENV_VAR = "SPACY_NSEEN_SERVE"


@dataclass(frozen=True)
class ServiceLimits:
    """The limits of one worker process.

    max_body_bytes (int): Largest request body (413 past it).
    max_texts (int): Most texts (or BioC passages) in one annotate request (413 past it).
    max_text_chars (int): Longest text, in characters (413 past it).
    max_mentions (int): Most mentions in one link request (413 past it).
    timeout_seconds (float): A request whose pipeline work takes longer gets 504.
    max_queue (int): Requests admitted to wait for the pipeline beside the one it runs; more get 503.
    retry_after_seconds (int): The `Retry-After` of a 503.
    """

    max_body_bytes: int = 2_000_000
    max_texts: int = 1000
    max_text_chars: int = 100_000
    max_mentions: int = 1000
    timeout_seconds: float = 30.0
    max_queue: int = 8
    retry_after_seconds: int = 1

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if value <= 0 and not (name == "max_queue" and value == 0):
                raise ValueError(f"service limit {name} must be positive, got {value}")


@dataclass(frozen=True)
class ServiceSettings:
    """Everything a worker needs to build the app.

    pipeline (str): A pipeline package name or path, loaded once per worker.
    limits (ServiceLimits): Request limits.
    cors_origins (Tuple[str, ...]): Origins allowed by CORS (empty: CORS off, the default).
    log_texts (bool): Whether access logs may carry request content (off by default: texts can be unpublished).
    workers (int): Worker processes of the server (with more than one, a busy worker hands its connections back:
        `service.spread`).
    """

    pipeline: str
    limits: ServiceLimits = field(default_factory=ServiceLimits)
    cors_origins: Tuple[str, ...] = ()
    log_texts: bool = False
    workers: int = 1

    def to_env(self) -> str:
        """RETURNS (str): The settings as JSON, for `ENV_VAR`."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> "ServiceSettings":
        """RETURNS (ServiceSettings): The settings written by `to_env`."""
        data: Dict[str, Any] = json.loads(text)
        return cls(
            pipeline=str(data["pipeline"]),
            limits=ServiceLimits(**data.get("limits", {})),
            cors_origins=tuple(data.get("cors_origins", ())),
            log_texts=bool(data.get("log_texts", False)),
            workers=int(data.get("workers", 1)),
        )

    @classmethod
    def from_env(cls) -> "ServiceSettings":
        """RETURNS (ServiceSettings): The settings in `ENV_VAR` (set by `spacy-nseen serve`)."""
        text = os.environ.get(ENV_VAR)
        if not text:
            raise RuntimeError(f"{ENV_VAR} is not set: start the service with `spacy-nseen serve --pipeline ...`")
        return cls.from_json(text)
