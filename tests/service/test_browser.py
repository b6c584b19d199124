"""The page in a real browser: Debian's headless chromium driven through chromium-driver (selenium) against the
service on 127.0.0.1: paste a caption, check the highlighted entities, their entry links and the candidate panel,
re-link with an organism, and save a screenshot: to results/service/browser.png with NSEEN_SAVE_SCREENSHOT=1 (how the
committed one was made), else to the test's temporary directory, so that a test run changes no tracked file."""

import os
import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest
from fastapi.testclient import TestClient
from service_support import CAPTION, REPO

from spacy_nseen.service.app import create_app
from spacy_nseen.service.pipeline import ServicePipeline
from spacy_nseen.service.settings import ServiceSettings

webdriver = pytest.importorskip("selenium.webdriver", reason="the browser test needs selenium (the test extra)")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

uvicorn = pytest.importorskip("uvicorn", reason="the service needs the serve extra")

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
COMMITTED_SCREENSHOT = REPO / "results" / "service" / "browser.png"


def screenshot_path(tmp_path: Path) -> Path:
    """RETURNS (Path): where the screenshot goes (results/ only when asked)."""
    return COMMITTED_SCREENSHOT if os.environ.get("NSEEN_SAVE_SCREENSHOT") == "1" else tmp_path / "browser.png"
HOSTILE = " Tagged <script>window.nseenInjected = 1</script> <b>bold</b>."

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or DRIVER is None,
        reason="no browser: install Debian's chromium and chromium-driver (bash scripts/install_browser.sh, run by "
        "scripts/setup_env.sh as root)",
    ),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server_url(demo_path: Path, demo_service: ServicePipeline) -> Iterator[str]:
    """The service on 127.0.0.1, in a thread of this process."""
    port = free_port()
    app = create_app(ServiceSettings(str(demo_path)), service=demo_service)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "the service did not start in 30 s"
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator["webdriver.Chrome"]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=str(DRIVER)))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def test_the_page_links_a_caption_in_a_real_browser(
    server_url: str, browser: "webdriver.Chrome", client: TestClient, tmp_path: Path
) -> None:
    text = CAPTION + HOSTILE
    expected = client.post("/v1/annotate", json={"texts": [text]}).json()["records"][0]["entities"]
    assert any(e["kb_id"] for e in expected) and any(e["kb_id"] is None for e in expected)
    # the page replaces its elements when it links again: a stale one is looked up anew
    wait = WebDriverWait(browser, 30, ignored_exceptions=[StaleElementReferenceException])
    browser.get(server_url + "/")
    wait.until(lambda d: d.find_element(By.ID, "pipeline-info").text.startswith("pipeline "))
    browser.find_element(By.ID, "text").send_keys(text)
    browser.find_element(By.ID, "annotate").click()
    wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "mark.entity")))
    marks = browser.find_elements(By.CSS_SELECTOR, "mark.entity")
    assert len(marks) == len(expected)
    for mark, entity in zip(marks, expected):
        links = mark.find_elements(By.TAG_NAME, "a")
        if entity["kb_id"]:
            assert links and links[0].get_attribute("href") == f"https://identifiers.org/{entity['kb_id']}"
            assert entity["kb_id"] in mark.text
        else:
            assert not links and "unlinked" in (mark.get_attribute("class") or "")
    # the caption's markup is text, not markup: no script ran, no <b> element was made
    document = browser.find_element(By.CSS_SELECTOR, ".document")
    assert "<script>window.nseenInjected = 1</script>" in document.text
    assert browser.execute_script("return window.nseenInjected === undefined")
    assert not document.find_elements(By.TAG_NAME, "b") and not document.find_elements(By.TAG_NAME, "script")
    # the panel of a linked entity: its candidates and probabilities, its organism and evidence
    first = next(i for i, e in enumerate(expected) if e["kb_id"] and e["kb_candidates"])
    marks[first].find_element(By.CLASS_NAME, "entity-label").click()
    panel = browser.find_element(By.ID, "panel")
    wait.until(lambda d: panel.find_elements(By.CSS_SELECTOR, "table.candidates"))
    rows = panel.find_elements(By.CSS_SELECTOR, "table.candidates tr")[1:]
    assert len(rows) == len(expected[first]["kb_candidates"])
    assert rows[0].find_element(By.TAG_NAME, "a").text == expected[first]["kb_candidates"][0][0]
    assert "linked to " + expected[first]["kb_id"] in panel.text
    if expected[first]["kb_taxon"]:
        assert f"taxon {expected[first]['kb_taxon']}" in panel.find_element(By.CLASS_NAME, "organism").text
        assert panel.find_elements(By.CSS_SELECTOR, "ul.evidence li")
    assert browser.save_screenshot(str(screenshot_path(tmp_path)))
    # set the document's organism: the page links again, and the record says so
    Select(browser.find_element(By.ID, "organism")).select_by_value("9606")
    wait.until(lambda d: "organisms: human (taxon 9606)" in d.find_element(By.CSS_SELECTOR, ".document h3").text)
    unlinked = next(i for i, e in enumerate(expected) if e["kb_id"] is None and e["kb_candidates"] is not None)
    browser.find_elements(By.CSS_SELECTOR, "mark.entity")[unlinked].find_element(By.CLASS_NAME, "entity-label").click()
    assert "not linked" in browser.find_element(By.ID, "panel").text


def test_the_api_page_lists_the_operations_without_the_network(server_url: str, browser: "webdriver.Chrome") -> None:
    browser.get(server_url + "/docs")
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "section.document h2"))
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "section.document h2")]
    assert {"POST /v1/annotate", "POST /v1/link", "GET /v1/info"} <= set(headings)
    assert "request: AnnotateRequest" in browser.find_element(By.ID, "api").text


def test_the_page_links_an_uploaded_bioc_file(server_url: str, browser: "webdriver.Chrome", tmp_path: Path) -> None:
    bioc = tmp_path / "article.xml"
    bioc.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><collection><source>t</source><date/><key/><document><id>PMC9</id>'
        "<passage><offset>0</offset><text>MDM2 binds p53 in HeLa cells.</text></passage>"
        "<passage><offset>40</offset><text>Cells were treated with glucose.</text></passage></document></collection>",
        encoding="utf8",
    )
    wait = WebDriverWait(browser, 30, ignored_exceptions=[StaleElementReferenceException])
    browser.get(server_url + "/")
    wait.until(lambda d: d.find_element(By.ID, "pipeline-info").text.startswith("pipeline "))
    browser.find_element(By.ID, "bioc-file").send_keys(str(bioc))
    browser.find_element(By.ID, "annotate").click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".document")) == 2)
    assert [d.get_attribute("data-id") for d in browser.find_elements(By.CSS_SELECTOR, ".document")] == [
        "PMC9/0",
        "PMC9/1",
    ]
    assert browser.find_elements(By.CSS_SELECTOR, "mark.entity")
