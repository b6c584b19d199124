"""Every endpoint of the API, its answers checked against the response models the OpenAPI description declares,
and the errors a caller can make, each a 4xx with a message that says what to fix."""

import json
from typing import Any, Dict

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel
from service_support import CAPTION

from spacy_nseen.service.schemas import AnnotateResponse, InfoResponse, LinkResponse, StatusResponse


def openapi_model(client: TestClient, path: str, method: str) -> str:
    """RETURNS (str): The name of the model /openapi.json declares for the 200 answer of an operation."""
    spec = client.get("/openapi.json").json()
    schema = spec["paths"][path][method]["responses"]["200"]["content"]["application/json"]["schema"]
    return schema["$ref"].rsplit("/", 1)[-1]


def conforms(model: type, answer: Dict[str, Any]) -> BaseModel:
    """RETURNS (BaseModel): The answer read strictly as the model (every declared field, nothing unknown lost)."""
    parsed = model.model_validate(answer)
    assert json.loads(parsed.model_dump_json(exclude_unset=True)) == answer
    return parsed


def test_health_ready_and_openapi(client: TestClient) -> None:
    assert conforms(StatusResponse, client.get("/v1/health").json()).status == "ok"
    assert conforms(StatusResponse, client.get("/v1/ready").json()).status == "ready"
    spec = client.get("/openapi.json").json()
    assert {"/v1/annotate", "/v1/link", "/v1/info", "/v1/health", "/v1/ready"} <= set(spec["paths"])
    assert openapi_model(client, "/v1/annotate", "post") == "AnnotateResponse"
    assert openapi_model(client, "/v1/link", "post") == "LinkResponse"
    assert "413" in spec["paths"]["/v1/annotate"]["post"]["responses"]


def test_info_names_the_reference_sets_labels_and_organisms(client: TestClient) -> None:
    info = conforms(InfoResponse, client.get("/v1/info").json())
    assert openapi_model(client, "/v1/info", "get") == "InfoResponse"
    sets = {s.name: s for s in info.reference_sets}
    assert set(sets) == {"uniprot", "chebi"}
    assert "PROTEIN" in sets["uniprot"].labels and sets["uniprot"].entities > 0
    assert {"PROTEIN", "CHEMICAL"} <= set(info.labels)
    assert any(o.taxon == 9606 and o.name == "human" for o in info.organisms)


def test_annotate_returns_records_of_the_declared_model(client: TestClient) -> None:
    answer = client.post("/v1/annotate", json={"texts": [CAPTION, "MDM2 binds p53."], "ids": ["a", "b"]})
    assert answer.status_code == 200, answer.text
    parsed = AnnotateResponse.model_validate(answer.json())
    assert [r.id for r in parsed.records] == ["a", "b"]
    entities = parsed.records[0].entities
    assert any(e.label == "PROTEIN" and e.kb_candidates for e in entities)
    for entity in entities:
        assert CAPTION[entity.start : entity.end] == entity.text


def test_annotate_with_organisms_article_and_figures(client: TestClient) -> None:
    body = {"texts": ["Mouse embryonic fibroblasts.", "LC3 and p62 in the cells."], "article": True, "figures": ["1", "1"]}
    assert client.post("/v1/annotate", json=body).status_code == 200
    answer = client.post("/v1/annotate", json={"texts": ["LC3 and p62 in the cells."], "organisms": ["human"]}).json()
    assert answer["records"][0]["organisms"] == [9606]
    proteins = [e for e in answer["records"][0]["entities"] if e["label"] == "PROTEIN"]
    assert proteins and all(e["kb_taxon"] in (9606, None) for e in proteins)


BIOC_XML = (
    '<?xml version="1.0" encoding="UTF-8"?><collection><source>t</source><date/><key/>'
    "<document><id>PMC1</id><passage><offset>0</offset><text>p53 and MDM2 in HeLa cells.</text></passage>"
    "<passage><offset>30</offset><text>Cells treated with glucose.</text></passage></document></collection>"
)


def test_annotate_a_bioc_collection_in_xml_json_and_back_to_bioc(client: TestClient) -> None:
    answer = client.post("/v1/annotate", json={"bioc": BIOC_XML, "article": True})
    assert answer.status_code == 200, answer.text
    records = AnnotateResponse.model_validate(answer.json()).records
    assert [r.id for r in records] == ["PMC1/0", "PMC1/1"] and records[1].meta["passage_offset"] == 30
    collection = {"documents": [{"id": "D", "passages": [{"offset": 0, "text": "MDM2 binds p53."}]}]}
    answer = client.post("/v1/annotate", json={"bioc": json.dumps(collection), "bioc_format": "json"})
    assert answer.status_code == 200 and answer.json()["records"][0]["id"] == "D"
    xml = client.post("/v1/annotate", json={"bioc": BIOC_XML, "output": "bioc-xml"})
    assert xml.status_code == 200 and xml.headers["content-type"].startswith("application/xml")
    assert "<document><id>PMC1</id>" in xml.text and "<annotation" in xml.text


def test_a_bioc_passage_without_text_is_reported_not_dropped(client: TestClient) -> None:
    collection = {"documents": [{"id": "D", "passages": [{"offset": 0, "text": "MDM2."}, {"offset": 9}]}]}
    answer = client.post("/v1/annotate", json={"bioc": json.dumps(collection)}).json()
    assert len(answer["records"]) == 1
    assert answer["bad_records"] and "missing text" in answer["bad_records"][0]["problem"]


def test_link_returns_candidates_verdicts_and_organism_evidence(client: TestClient) -> None:
    body = {
        "mentions": [
            {"text": "MDM2", "label": "PROTEIN", "organism": 9606},
            {"text": "glucose", "kb": "chebi"},
            {"text": "Trp53", "label": "PROTEIN", "context": "mouse embryonic fibroblasts"},
        ],
        "top_k": 3,
    }
    answer = client.post("/v1/link", json=body)
    assert answer.status_code == 200, answer.text
    results = conforms(LinkResponse, answer.json()).results
    assert [r.kb for r in results] == ["uniprot", "chebi", "uniprot"]
    assert all(0 < len(r.candidates) <= 3 for r in results)
    assert results[0].organism is not None and results[0].organism.taxon == 9606
    assert any("given" in line for line in results[0].organism.evidence)
    assert results[1].kb_id == "CHEBI:17234" and not results[1].nil
    assert results[2].organism is not None and results[2].organism.taxon == 10090
    for result in results:
        assert result.nil == (result.kb_id is None)
        scores = [c.score for c in result.candidates]
        assert result.kb_id in (None, result.candidates[0].kb_id) and scores


BAD_REQUESTS = [
    ("/v1/annotate", b"{not json", 422, "not valid JSON"),
    ("/v1/annotate", b'["a list"]', 422, "valid dictionary"),
    ("/v1/annotate", b'{"texts": [1, 2]}', 422, "texts.0: Input should be a valid string"),
    ("/v1/annotate", b'{"texts": "one string"}', 422, "texts: Input should be a valid list"),
    ("/v1/annotate", b'{"texts": []}', 422, "texts is empty"),
    ("/v1/annotate", b'{"texts": ["  "]}', 422, "is empty"),
    ("/v1/annotate", b'{"texts": ["a"], "bioc": "<collection/>"}', 422, "either `texts`"),
    ("/v1/annotate", b"{}", 422, "either `texts`"),
    ("/v1/annotate", b'{"texts": ["a"], "ids": ["1", "2"]}', 422, "one id per text"),
    ("/v1/annotate", b'{"texts": ["a"], "figures": ["1", "2"]}', 422, "give one per text"),
    ("/v1/annotate", b'{"texts": ["a"], "colour": "red"}', 422, "colour: Extra inputs are not permitted"),
    ("/v1/annotate", b'{"texts": ["a"], "organisms": ["martian"]}', 422, "unknown organism 'martian'"),
    ("/v1/annotate", b'{"texts": ["a"], "organisms": [123456789]}', 422, "unknown organism 123456789"),
    ("/v1/annotate", b'{"texts": ["a"], "output": "pdf"}', 422, "output"),
    ("/v1/annotate", b'{"texts": ["\\ud800 lone"]}', 422, "lone surrogate"),
    ("/v1/annotate", b'{"texts": ["caf\xe9"]}', 400, "not valid UTF-8 (byte 15)"),
    ("/v1/annotate", b'{"bioc": "<collection><document>"}', 422, "bioc: no text to annotate"),
    ("/v1/annotate", b'{"bioc": "{\\"documents\\": 3}"}', 422, "not a BioC JSON collection"),
    ("/v1/annotate", b'{"bioc": "[1, 2"}', 422, "invalid JSON"),
    ("/v1/link", b'{"mentions": []}', 422, "mentions is empty"),
    ("/v1/link", b'{"mentions": [{"text": "p53"}]}', 422, "give a label"),
    ("/v1/link", b'{"mentions": [{"text": "p53", "kb": "hgnc"}]}', 422, "unknown reference set 'hgnc'"),
    ("/v1/link", b'{"mentions": [{"text": "p53", "label": "DISEASE"}]}', 422, "links no 'DISEASE'"),
    ("/v1/link", b'{"mentions": [{"text": "p53", "label": "PROTEIN", "kb": "chebi"}]}', 422, "not routed"),
    ("/v1/link", b'{"mentions": [{"text": " ", "label": "PROTEIN"}]}', 422, "text is empty"),
    ("/v1/link", b'{"mentions": [{"text": "p53", "label": "PROTEIN", "organism": "yeti"}]}', 422, "unknown organism"),
    ("/v1/link", b'{"mentions": [{"text": "p53", "label": "PROTEIN"}], "top_k": 0}', 422, "top_k"),
]


@pytest.mark.parametrize("path,body,status,message", BAD_REQUESTS)
def test_a_bad_request_is_a_4xx_that_says_what_to_fix(
    client: TestClient, path: str, body: bytes, status: int, message: str
) -> None:
    answer = client.post(path, content=body, headers={"content-type": "application/json"})
    assert answer.status_code == status, answer.text
    assert message in answer.json()["error"]


def test_a_5_mb_text_and_10000_texts_are_413(client: TestClient) -> None:
    answer = client.post("/v1/annotate", json={"texts": ["a" * 5_000_000]})
    assert answer.status_code == 413 and "limit is 1,000,000 bytes" in answer.json()["error"]
    answer = client.post("/v1/annotate", json={"texts": ["p53"] * 10_000})
    assert answer.status_code == 413 and "10,000 texts, the limit is 200" in answer.json()["error"]
    answer = client.post("/v1/annotate", json={"texts": ["a" * 30_000]})
    assert answer.status_code == 413 and "30,000 characters" in answer.json()["error"]
    answer = client.post("/v1/link", json={"mentions": [{"text": "p53", "label": "PROTEIN"}] * 101})
    assert answer.status_code == 413 and "mentions" in answer.json()["error"]


def test_unknown_paths_and_methods_are_4xx(client: TestClient) -> None:
    assert client.get("/v1/nothing").status_code == 404
    assert client.get("/v1/annotate").status_code == 405
    assert client.get("/static/../../setup.cfg").status_code == 404


def test_the_page_its_files_and_the_api_page_are_served_without_cdn(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "script-src" not in page.headers["content-security-policy"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("app.js", "style.css", "docs.js"):
        assert client.get(f"/static/{name}").status_code == 200
    for html in (page.text, client.get("/docs").text):
        assert "http://" not in html and "https://" not in html  # every script and style is the package's own


def test_cors_is_off_by_default(client: TestClient) -> None:
    answer = client.options(
        "/v1/annotate", headers={"Origin": "https://example.org", "Access-Control-Request-Method": "POST"}
    )
    assert "access-control-allow-origin" not in answer.headers
