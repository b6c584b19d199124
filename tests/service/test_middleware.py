"""The body limit (by Content-Length and while reading a chunked body), the UTF-8 check, and access logs that
carry no text."""

import json
import logging
from typing import Iterator

import pytest
from fastapi.testclient import TestClient
from service_support import CAPTION


def test_a_chunked_body_over_the_limit_is_413_without_reading_it_all(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"texts": ["'
        for _ in range(300):
            yield b"a" * 10_000
        yield b'"]}'

    answer = client.post("/v1/annotate", content=chunks(), headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "limit is 1,000,000 bytes" in answer.json()["error"]


def test_access_logs_are_json_lines_without_the_texts(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="spacy_nseen.service.access"):
        assert client.post("/v1/annotate", json={"texts": [CAPTION]}).status_code == 200
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "spacy_nseen.service.access"]
    assert lines and lines[-1]["path"] == "/v1/annotate" and lines[-1]["status"] == 200
    assert lines[-1]["bytes_in"] > 0 and lines[-1]["ms"] > 0
    assert all("fibroblasts" not in r.getMessage() for r in caplog.records)
