"""Fetch robustness (issue 7), beyond tests/training/test_download.py (which covers a checksum mismatch and a
connection cut before Content-Length bytes): a truncated or corrupt gzip in a mirror makes the next step fail
without writing its output; a cut download without Content-Length is caught by its checksum; a failed
re-download leaves the earlier complete file in place."""
import gzip
import hashlib
import shutil
from pathlib import Path

import pytest
from local_http import Route, serve

from training.common.data_errors import DataFileError, DownloadError
from training.data.build_reference_sets import build_reference_sets
from training.data.download import download
from training.data.fetch import MIRROR_FILES, fetch
from training.pairs.make_pairs import make_pairs
from training.pairs.pair_store import PairStore

FIXTURES = Path(__file__).parent.parent / "fixtures"
MIRROR_FIXTURES = {
    "uniprot/names.tsv.gz": "mirror_uniprot_names.tsv.gz",
    "uniprot/families_hgnc.tsv.gz": "mirror_families_hgnc.tsv.gz",
    "uniprot/hgnc_2024.tsv.gz": "mirror_hgnc.tsv.gz",
    "chebi/chebi_2024_entities.tsv.gz": "mirror_chebi_2024_entities.tsv.gz",
    "chebi/names_3star_2018.tsv.gz": "mirror_names_3star_2018.tsv.gz",
    "chebi/secondary_to_primary.tsv.gz": "mirror_secondary_to_primary.tsv.gz",
}
PAYLOAD = gzip.compress(b"kb_id\tname\n" + b"UniProt:P1\tname\n" * 2000, mtime=0)

# the command's options, as its command line defaults them (called as a function, typer's defaults are not values)
BUILD_DEFAULTS = dict(name_form_rules="", without_human=False, secondary=None, chebi_names_v2=True, gene_aliases=True)


def cut_in_half(data: bytes) -> bytes:
    return data[: len(data) // 2]


def cut_trailer(data: bytes) -> bytes:
    return data[:-4]  # the gzip size field is gone: the stream ends early


def flip_a_byte(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :]


DAMAGE = {"cut_in_half": cut_in_half, "cut_trailer": cut_trailer, "flipped_byte": flip_a_byte}


@pytest.fixture
def mirror(tmp_path) -> Path:
    root = tmp_path / "mirror"
    for rel, name in MIRROR_FIXTURES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / "training" / name, root / rel)
    return root


def outputs(directory: Path) -> list:
    return sorted(p.name for p in directory.rglob("*") if p.is_file()) if directory.exists() else []


@pytest.mark.parametrize("damage", list(DAMAGE))
@pytest.mark.parametrize("kb,rel", [("uniprot", "uniprot/names.tsv.gz"), ("chebi", "chebi/names_3star_2018.tsv.gz")])
def test_a_damaged_gzip_in_the_mirror_stops_the_build_without_output(mirror, tmp_path, kb, rel, damage):
    assert any(src == rel for src, _ in MIRROR_FILES[kb])
    (mirror / rel).write_bytes(DAMAGE[damage]((mirror / rel).read_bytes()))
    sources = tmp_path / "sources"
    fetch([kb], sources, str(mirror), "", 5.0)  # a mirror copy is taken as it is
    assert not [name for name in outputs(sources) if name.endswith(".part")]
    out = tmp_path / "reference"
    with pytest.raises(DataFileError) as err:
        build_reference_sets([kb], sources, out, False, "", **BUILD_DEFAULTS)
    assert Path(rel).name in str(err.value)
    assert not [name for name in outputs(out) if name.startswith(f"{kb}.tsv")], outputs(out)


def test_the_intact_mirror_builds(mirror, tmp_path):
    fetch(["uniprot", "chebi"], tmp_path / "sources", str(mirror), "", 5.0)  # without the optional names v2 files
    assert not (tmp_path / "sources" / "chebi" / "chebi_names_reach_2016.tsv.gz").exists()
    build_reference_sets(["uniprot", "chebi"], tmp_path / "sources", tmp_path / "reference", False, "", **BUILD_DEFAULTS)
    assert {"uniprot.tsv.gz", "chebi.tsv.gz"} <= set(outputs(tmp_path / "reference"))


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_reference_set_stops_the_pairs_step_without_output(tmp_path, damage):
    reference = tmp_path / "reference"
    reference.mkdir()
    data = gzip.compress((FIXTURES / "toy_reference.tsv").read_bytes() * 20, mtime=0)
    (reference / "uniprot.tsv.gz").write_bytes(DAMAGE[damage](data))
    out = tmp_path / "pairs"
    with pytest.raises(DataFileError):
        make_pairs(["uniprot"], reference, out, 0, 1.0, 200, 5, 1, True)
    assert outputs(out) == []


@pytest.mark.parametrize("damage", ["cut_in_half", "cut_trailer"])
def test_a_damaged_pair_store_is_an_error(tmp_path, damage):
    store = PairStore(["a", "b", "c"], [0, 0, 1], ["X:1", "X:2"], seed=1)
    store.append([0, 0], [1, 2], [1.0, 0.0], "semantic")
    store.save(tmp_path / "pairs.npz")
    (tmp_path / "pairs.npz").write_bytes(DAMAGE[damage]((tmp_path / "pairs.npz").read_bytes()))
    with pytest.raises(DataFileError, match="pairs.npz"):
        PairStore.load(tmp_path / "pairs.npz")


@pytest.fixture(scope="module")
def server():
    # /cut sends no Content-Length: the client cannot tell that the connection was cut
    routes = {"/complete": Route(PAYLOAD), "/cut": Route(PAYLOAD, sent=len(PAYLOAD) // 2, content_length=False)}
    with serve(routes) as url:
        yield url


def test_a_cut_without_content_length_is_a_checksum_mismatch(server, tmp_path):
    dest = tmp_path / "names.tsv.gz"
    with pytest.raises(DownloadError, match="checksum mismatch"):
        download(f"{server}/cut", dest, sha256=hashlib.sha256(PAYLOAD).hexdigest(), progress=False, timeout=5)
    assert outputs(tmp_path) == []


def test_a_failed_download_keeps_the_earlier_complete_file(server, tmp_path):
    dest = tmp_path / "names.tsv.gz"
    digest = hashlib.sha256(PAYLOAD).hexdigest()
    download(f"{server}/complete", dest, sha256=digest, progress=False, timeout=5)
    with pytest.raises(DownloadError):
        download(f"{server}/cut", dest, sha256=digest, progress=False, timeout=5)
    assert dest.read_bytes() == PAYLOAD and outputs(tmp_path) == ["names.tsv.gz"]


def test_an_unchecked_cut_download_is_caught_by_the_next_step(server, tmp_path):
    """A dynamic file (no pinned checksum) cut without Content-Length is saved; reading it fails."""
    from training.common.tsv_io import iter_tsv

    dest = tmp_path / "names.tsv.gz"
    download(f"{server}/cut", dest, progress=False, timeout=5)
    with pytest.raises(DataFileError, match="names.tsv.gz"):
        list(iter_tsv(dest, ("kb_id", "name")))
