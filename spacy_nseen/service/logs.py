"""The logging set-up of `spacy-nseen serve`: uvicorn's own loggers plus the service's, the access log as one
JSON line per request (`middleware.AccessLogMiddleware`) on standard error."""

from typing import Any, Dict


def log_config(level: str = "INFO") -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): A `logging.config.dictConfig` dict for uvicorn's `log_config`."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"},
            "access": {"format": "%(message)s"},
        },
        "handlers": {
            "plain": {"class": "logging.StreamHandler", "formatter": "plain", "stream": "ext://sys.stderr"},
            "access": {"class": "logging.StreamHandler", "formatter": "access", "stream": "ext://sys.stderr"},
        },
        "loggers": {
            "uvicorn": {"handlers": ["plain"], "level": level, "propagate": False},
            "uvicorn.error": {"handlers": ["plain"], "level": level, "propagate": False},
            "spacy_nseen.service": {"handlers": ["plain"], "level": level, "propagate": False},
            "spacy_nseen.service.access": {"handlers": ["access"], "level": level, "propagate": False},
        },
    }
