"""The errors the service answers with: a status and a message that says what to fix (never a 500 for bad
input), as `{"error": message}`."""

from typing import Dict, Optional


class ServiceError(Exception):
    """A request the service refuses.

    status (int): The HTTP status (4xx for the caller's mistakes, 503/504 for load).
    message (str): What is wrong and what to do about it.
    headers (Optional[Dict[str, str]]): Extra response headers (`Retry-After`).
    """

    def __init__(self, status: int, message: str, headers: Optional[Dict[str, str]] = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


def too_large(what: str, found: int, limit: int, unit: str) -> ServiceError:
    """RETURNS (ServiceError): A 413 naming the limit and how to stay within it."""
    return ServiceError(
        413, f"{what}: {found:,} {unit}, the limit is {limit:,} {unit}; split the request into smaller ones"
    )
