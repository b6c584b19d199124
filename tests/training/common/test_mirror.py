from pathlib import Path

import pytest

from training.common.mirror import mirror_file
from training.data.download import resolve_mirror


def test_mirror_file_honours_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.delenv("NSEEN_MIRROR", raising=False)
    assert mirror_file("bioid", "mentions.tsv.gz") == Path("../shared/data/bioid/mentions.tsv.gz")
    monkeypatch.setenv("NSEEN_MIRROR", str(tmp_path))
    assert mirror_file("chebi", "secondary_to_primary.tsv.gz") == tmp_path / "chebi" / "secondary_to_primary.tsv.gz"
    assert resolve_mirror() == tmp_path  # the data step reads the same variable
