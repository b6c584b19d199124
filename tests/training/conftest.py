from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent.parent / "fixtures" / "training"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: slow tests (more than a few seconds)")


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture
def mirror_sources(tmp_path: Path) -> Path:
    """A fetch-step output directory made from the mirror-format fixtures."""
    import json
    import shutil

    sources = tmp_path / "sources"
    layout = {
        "uniprot/names.tsv.gz": "mirror_uniprot_names.tsv.gz",
        "uniprot/families_hgnc.tsv.gz": "mirror_families_hgnc.tsv.gz",
        "uniprot/hgnc.tsv.gz": "mirror_hgnc.tsv.gz",
        "chebi/chebi_2024_entities.tsv.gz": "mirror_chebi_2024_entities.tsv.gz",
        "chebi/names_3star_2018.tsv.gz": "mirror_names_3star_2018.tsv.gz",
        "chebi/secondary_to_primary.tsv.gz": "mirror_secondary_to_primary.tsv.gz",
    }
    for dest, src in layout.items():
        (sources / dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / src, sources / dest)
    manifest = {kb: {"format": "mirror", "files": {}} for kb in ("uniprot", "chebi")}
    (sources / "manifest.json").write_text(json.dumps(manifest))
    return sources
