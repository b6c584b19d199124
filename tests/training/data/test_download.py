import hashlib
import json

import pytest
from local_http import Route, serve

from training.common.data_errors import DataFileError, DownloadError
from training.data.download import copy_from_mirror, download, resolve_mirror
from training.data.fetch import fetch

PAYLOAD = b"kb_id\tname\n" * 500


@pytest.fixture(scope="module")
def server():
    routes = {"/ok": Route(PAYLOAD), "/cut": Route(PAYLOAD, sent=100), "/missing": Route(status=404)}
    with serve(routes) as url:
        yield url


def test_download_with_checksum(server, tmp_path):
    dest = tmp_path / "a" / "file.tsv"
    digest = download(f"{server}/ok", dest, sha256=hashlib.sha256(PAYLOAD).hexdigest(), progress=False)
    assert dest.read_bytes() == PAYLOAD
    assert digest == hashlib.sha256(PAYLOAD).hexdigest()
    assert list(dest.parent.iterdir()) == [dest]


def test_checksum_mismatch_leaves_nothing(server, tmp_path):
    dest = tmp_path / "file.tsv"
    with pytest.raises(DownloadError, match="checksum mismatch"):
        download(f"{server}/ok", dest, sha256="0" * 64, progress=False)
    assert list(tmp_path.iterdir()) == []


def test_cut_connection_leaves_nothing(server, tmp_path):
    dest = tmp_path / "file.tsv"
    with pytest.raises(DownloadError) as err:
        download(f"{server}/cut", dest, progress=False, timeout=5)
    assert "--mirror" in str(err.value) and "NSEEN_MIRROR" in str(err.value)
    assert list(tmp_path.iterdir()) == []


def test_network_failure_names_the_mirror_option(server, tmp_path):
    for url in (f"{server}/missing", "http://127.0.0.1:9/unreachable"):
        with pytest.raises(DownloadError, match="NSEEN_MIRROR") as err:
            download(url, tmp_path / "f", progress=False, timeout=5)
        assert "--mirror" in str(err.value)
    assert list(tmp_path.iterdir()) == []


def test_mirror_resolution(tmp_path, monkeypatch):
    monkeypatch.delenv("NSEEN_MIRROR", raising=False)
    assert resolve_mirror(None) is None
    monkeypatch.setenv("NSEEN_MIRROR", str(tmp_path))
    assert resolve_mirror(None) == tmp_path
    assert resolve_mirror("") is None  # explicit empty option wins: download
    with pytest.raises(DataFileError, match="mirror directory not found"):
        resolve_mirror(tmp_path / "nope")
    with pytest.raises(DataFileError, match="not found in the mirror"):
        copy_from_mirror(tmp_path, "chebi/x.tsv.gz", tmp_path / "out" / "x.tsv.gz")


def test_fetch_from_mirror(fixtures, tmp_path):
    mirror = tmp_path / "mirror"
    for rel, src in (
        ("uniprot/names.tsv.gz", "mirror_uniprot_names.tsv.gz"),
        ("uniprot/families_hgnc.tsv.gz", "mirror_families_hgnc.tsv.gz"),
        ("uniprot/hgnc_2024.tsv.gz", "mirror_hgnc.tsv.gz"),
    ):
        (mirror / rel).parent.mkdir(parents=True, exist_ok=True)
        (mirror / rel).write_bytes((fixtures / src).read_bytes())
    out = tmp_path / "sources"
    fetch(["uniprot"], out, str(mirror), "", 5.0)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["uniprot"]["format"] == "mirror"
    assert (out / "uniprot/hgnc.tsv.gz").read_bytes() == (fixtures / "mirror_hgnc.tsv.gz").read_bytes()
    with pytest.raises(DataFileError, match="not found in the mirror"):
        fetch(["chebi"], out, str(mirror), "", 5.0)
