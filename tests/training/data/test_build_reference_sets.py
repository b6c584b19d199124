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
        build_reference_sets(["uniprot"], mirror_sources, tmp_path / "out", False, without_human=False)
    (mirror_sources / "manifest.json").unlink()
    with pytest.raises(DataFileError, match="Run the fetch step"):
        build_reference_sets(["uniprot"], mirror_sources, tmp_path / "out", False, without_human=False)


def _organism_sources(sources):
    """Add a tiny organisms source: one mouse entry (main file), a fly and a KSHV entry (extra file), and a
    secondary-accession index that retires the mouse accession."""
    org = sources / "organisms"
    org.mkdir(exist_ok=True)
    header = "accession\tname\tname_kind\ttaxon_id\torganism\n"
    with gzip.open(org / "names_by_organism.tsv.gz", "wt", encoding="utf8") as f:
        f.write(header + "Q61769\tMki67\tgene_primary\t10090\tMus musculus\n")
    with gzip.open(org / "names_by_organism_extra.tsv.gz", "wt", encoding="utf8") as f:
        f.write(header + "P23226\tdpp\tgene_primary\t7227\tDrosophila melanogaster\n"
                "P23226\tDECA\tentry_mnemonic\t7227\tDrosophila melanogaster\n"
                "F5HGJ3\tTK\tgene_primary\t868565\tHuman herpesvirus 8 type P (isolate GK18)\n")
    (org / "uniprot_sec_ac.txt").write_text("Secondary AC   Primary AC\nQ61769   E9PVX6\n")
    manifest = json.loads((sources / "manifest.json").read_text())
    manifest["organisms"] = {"format": "mirror", "files": {}}
    (sources / "manifest.json").write_text(json.dumps(manifest))


def test_build_with_extra_organisms_name_forms_and_retired_accessions(mirror_sources, tmp_path):
    _organism_sources(mirror_sources)
    out = tmp_path / "reference"
    result = CliRunner().invoke(_app(), ["uniprot", "--sources", str(mirror_sources), "--out", str(out),
                                         "--organisms", "10090,7227,37296", "--name-forms", "all",
                                         "--no-gene-aliases"])
    assert result.exit_code == 0, result.output
    with gzip.open(out / "uniprot.tsv.gz", "rt", encoding="utf-8") as f:
        rows = [line.split("\t") for line in f.read().splitlines()[1:]]
    by_id = {}
    for kb_id, name, kind, taxon in rows:
        by_id.setdefault(kb_id, []).append((name, kind, int(taxon)))
    assert by_id["UniProt:E9PVX6"] == [("Mki67", "gene_primary", 10090)] and "UniProt:Q61769" not in by_id
    assert by_id["UniProt:P23226"] == [("dpp", "gene_primary", 7227), ("Dmdpp", "name_form", 7227)]
    assert ("KSHV-TK", "name_form", 37296) in by_id["UniProt:F5HGJ3"]
    stats = json.loads((out / "uniprot_stats.json").read_text())
    assert stats["extra_name_sources"]["retired_accessions"] == {"mapped": 1, "merged": 0}
    assert stats["extra_name_sources"]["extra_organisms"]["entries"] == 2


def test_unknown_organism_word_is_a_clear_error(mirror_sources, tmp_path):
    _organism_sources(mirror_sources)
    result = CliRunner().invoke(_app(), ["uniprot", "--sources", str(mirror_sources), "--out", str(tmp_path / "o"),
                                         "--organisms", "flies"])
    assert result.exit_code != 0 and "neither an NCBI taxon id" in result.output


def test_model_organisms_without_the_extra_file_warn_and_explicit_ones_fail(mirror_sources, tmp_path):
    _organism_sources(mirror_sources)
    (mirror_sources / "organisms" / "names_by_organism_extra.tsv.gz").unlink()
    ok = CliRunner().invoke(_app(), ["uniprot", "--sources", str(mirror_sources), "--out", str(tmp_path / "a"),
                                     "--organisms", "10090,model", "--no-gene-aliases"])
    assert ok.exit_code == 0 and "not fetched" in ok.output
    bad = CliRunner().invoke(_app(), ["uniprot", "--sources", str(mirror_sources), "--out", str(tmp_path / "b"),
                                      "--organisms", "10090,7227", "--no-gene-aliases"])
    assert bad.exit_code != 0


def test_one_organism_set_without_human(mirror_sources, tmp_path):
    _organism_sources(mirror_sources)
    out = tmp_path / "fly"
    result = CliRunner().invoke(_app(), ["uniprot", "--sources", str(mirror_sources), "--out", str(out),
                                         "--organisms", "7227", "--without-human", "--no-gene-aliases"])
    assert result.exit_code == 0, result.output
    taxa = (out / "uniprot_taxa.tsv").read_text().splitlines()
    assert taxa == ["kb_id\ttaxon_id", "UniProt:P23226\t7227"]
    bad = CliRunner().invoke(_app(), ["uniprot", "--sources", str(mirror_sources), "--out", str(tmp_path / "x"),
                                      "--without-human"])
    assert bad.exit_code != 0 and "needs --organisms" in bad.output
