"""The API's annotate record is the record `spacy-nseen annotate` writes for the same texts."""

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from service_support import CAPTION

from spacy_nseen.corpus.records import TextRecord
from spacy_nseen.corpus.worker import ShardTask, annotate_shard
from spacy_nseen.service.annotate import bioc_records

TEXTS = [CAPTION, "MDM2 binds p53 in HeLa cells.", "Glucose uptake of yeast."]


def test_the_api_returns_the_record_annotate_writes(client: TestClient, demo_path: Path) -> None:
    records = [TextRecord(str(i + 1), text) for i, text in enumerate(TEXTS)]
    shard = annotate_shard(str(demo_path), ShardTask(0, records), "jsonl")
    written = [json.loads(line) for line in shard.payload.splitlines()]
    answer = client.post("/v1/annotate", json={"texts": TEXTS}).json()["records"]
    assert [r["id"] for r in answer] == [r["id"] for r in written]
    for served, annotated in zip(answer, written):
        assert served.keys() == annotated.keys()
        assert [(e["start"], e["end"], e["label"], e["kb_id"]) for e in served["entities"]] == [
            (e["start"], e["end"], e["label"], e["kb_id"]) for e in annotated["entities"]
        ]
        for a, b in zip(served["entities"], annotated["entities"]):
            assert a.keys() == b.keys()
            assert [c[0] for c in a["kb_candidates"] or []] == [c[0] for c in b["kb_candidates"] or []]


def test_bioc_records_name_the_request_not_a_temporary_file() -> None:
    records, bad = bioc_records('{"documents": [{"id": "D", "passages": [{"text": "x"}, {"offset": 1}]}]}', "auto")
    assert [r.id for r in records] == ["D/0"]
    assert bad and bad[0].position.startswith("bioc ") and "request" not in bad[0].position


RECORD_SCHEMA = Path(__file__).resolve().parents[2] / "spacy_nseen" / "corpus" / "annotation_record.schema.json"


def test_the_records_validate_against_annotates_json_schema(client: TestClient) -> None:
    """The JSON Schema of `annotate`'s record (corpus/annotation_record.schema.json), where the package has it."""
    if not RECORD_SCHEMA.is_file():
        pytest.skip(f"no {RECORD_SCHEMA.name} in this checkout: the records are checked against the OpenAPI models")
    jsonschema = pytest.importorskip("jsonschema", reason="validating against the JSON Schema needs jsonschema")
    schema = json.loads(RECORD_SCHEMA.read_text(encoding="utf8"))
    bioc = '{"documents": [{"id": "D", "passages": [{"offset": 0, "text": "MDM2 binds p53 in HeLa cells."}]}]}'
    for body in ({"texts": TEXTS, "organisms": ["mouse"]}, {"bioc": bioc, "article": True}):
        for record in client.post("/v1/annotate", json=body).json()["records"]:
            jsonschema.validate(record, schema)
