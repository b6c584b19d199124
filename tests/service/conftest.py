"""The service's tests run on the demo pipeline: `training_output/demo/pipeline` of this checkout or of the one
NSEEN_DEMO_RUN names (`.ci/run` builds it before the tests), or the path in NSEEN_DEMO_PIPELINE."""

from pathlib import Path
from typing import Iterator

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra: pip install -e '.[serve]'")

from fastapi.testclient import TestClient  # noqa: E402
from service_support import NO_DEMO, demo_pipeline  # noqa: E402

from spacy_nseen.service.app import create_app  # noqa: E402
from spacy_nseen.service.pipeline import ServicePipeline  # noqa: E402
from spacy_nseen.service.settings import ServiceLimits, ServiceSettings  # noqa: E402


@pytest.fixture(scope="session")
def demo_path() -> Path:
    path = demo_pipeline()
    if path is None:
        pytest.skip(NO_DEMO)
    return path


@pytest.fixture(scope="session")
def demo_service(demo_path: Path) -> ServicePipeline:
    """The demo pipeline, loaded once for the session."""
    return ServicePipeline.load(str(demo_path))


@pytest.fixture(scope="session")
def limits() -> ServiceLimits:
    return ServiceLimits(max_body_bytes=1_000_000, max_texts=200, max_text_chars=20_000, max_mentions=100)


@pytest.fixture(scope="session")
def client(demo_path: Path, demo_service: ServicePipeline, limits: ServiceLimits) -> Iterator[TestClient]:
    """A test client of the app over the loaded demo pipeline."""
    app = create_app(ServiceSettings(str(demo_path), limits), service=demo_service)
    with TestClient(app) as test_client:
        yield test_client
