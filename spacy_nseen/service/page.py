"""The curator's page at `/` and the offline API page at `/docs`: static HTML, JS and CSS shipped in the package
(no build step, no CDN), served with a Content-Security-Policy that allows only the page's own files."""

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC = Path(__file__).parent / "static"
# the page's scripts and styles are its own files: no inline script, nothing from another origin
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

router = APIRouter()


@router.get("/", include_in_schema=False)
def page() -> FileResponse:
    """The curator's page."""
    return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)


@router.get("/docs", include_in_schema=False)
def api_page() -> FileResponse:
    """The API page: the endpoints and models of `/openapi.json`, rendered by the package's own script."""
    return FileResponse(STATIC / "docs.html", headers=SECURITY_HEADERS)
