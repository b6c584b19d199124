import gzip
import json

import pytest
import typer
from typer.testing import CliRunner

from training.common.data_errors import DataFileError
from training.data.build_reference_sets import build_reference_sets, build_uniprot
from training.data.reference_rows import ReferenceRows


def _app():
    app = typer.Typer()
    app.command()(build_reference_sets)
    return app


def test_reference_rows_counts():
    rows = ReferenceRows()
    assert rows.add("A:1", " x ", "primary")
    assert not rows.add("A:1", "x", "synonym")
    assert not rows.add("A:1", "   ", "synonym")
    assert rows.add("A:2", "x", "primary")
    stats = rows.statistics()
    assert stats["entities"] == 2 and stats["names"] == 2
    assert stats["ambiguous_names"] == 1
    assert stats["dropped_empty_names"] == 1 and stats["dropped_duplicate_rows"] == 1


def test_reference_rows_change_the_kind_of_an_existing_row_only():
    rows = ReferenceRows()
    rows.add("A:1", "APP", "alternative")
    rows.add("A:1", "Amyloid-beta precursor protein", "recommended")
    assert rows.kind_of("A:1", "APP") == "alternative" and rows.kind_of("A:1", "TP53") is None
    rows.set_kind("A:1", "APP", "gene_primary")
    assert rows.rows == [("A:1", "APP", "gene_primary"), ("A:1", "Amyloid-beta precursor protein", "recommended")]
    with pytest.raises(KeyError):
        rows.set_kind("A:2", "APP", "gene_primary")


def test_hgnc_build_gives_approved_symbols(mirror_sources):
    # the approved symbols are added once, after either format's names and HGNC synonyms
    plain = build_uniprot(mirror_sources, "mirror", hgnc=False)
    enriched = build_uniprot(mirror_sources, "mirror", hgnc=True)
    assert "hgnc_approved_symbol" not in plain.sources
    assert "hgnc_approved_symbol" in enriched.sources


def test_build_from_mirror(mirror_sources, tmp_path):
    out = tmp_path / "reference"
    result = CliRunner().invoke(
        _app(), ["uniprot", "chebi", "--sources", str(mirror_sources), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    with gzip.open(out / "uniprot.tsv.gz", "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert lines[0] == "kb_id\tname\tkind"
    assert lines[1] == "UniProt:P31946\t14-3-3 protein beta/alpha\trecommended"
    stats = json.loads((out / "uniprot_stats.json").read_text())
    assert stats["entities"] == 4 and stats["names"] == len(lines) - 1
    assert (out / "uniprot_families.tsv").read_text().startswith("family_id\tkb_id\nHGNC-family:1053\t")
    assert (out / "chebi_names_per_entity.png").read_bytes()[:4] == b"\x89PNG"
    chebi = json.loads((out / "chebi_stats.json").read_text())
    assert chebi["entities"] == 5 and chebi["dropped_empty_names"] == 1


def test_corrupt_input_is_a_clear_error(mirror_sources, tmp_path):
    path = mirror_sources / "uniprot" / "names.tsv.gz"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # truncated download
    with pytest.raises(DataFileError, match="corrupt or truncated gzip"):
        build_reference_sets(["uniprot"], mirror_sources, tmp_path / "out", False)
    (mirror_sources / "manifest.json").unlink()
    with pytest.raises(DataFileError, match="Run the fetch step"):
        build_reference_sets(["uniprot"], mirror_sources, tmp_path / "out", False)
