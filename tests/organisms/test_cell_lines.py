import gzip
import json

import pytest

from spacy_nseen.errors import ArtifactError
from spacy_nseen.organisms.cell_lines import (
    FORMAT,
    VERSION,
    CellLineTable,
    build_table,
    cell_line_key,
    looks_like_cell_line,
    name_starts,
)


def found(table, text):
    return [(h.text, h.taxa) for h in table.find(text)]


def test_key_is_case_and_punctuation_free():
    assert cell_line_key("NIH/3T3") == cell_line_key("nih 3T3") == "nih3t3"


def test_build_table_keeps_ambiguity_and_fills_taxa():
    rows = [{"cellosaurus_id": "CVCL_0481", "name": "PC-12", "species": "Rattus norvegicus", "taxon_id": "10116"},
            {"cellosaurus_id": "CVCL_S979", "name": "PC12", "species": "Homo sapiens", "taxon_id": "9606"},
            {"cellosaurus_id": "CVCL_0224", "name": "COS-7", "species": "Chlorocebus aethiops", "taxon_id": ""},
            {"cellosaurus_id": "CVCL_X", "name": "HyB", "species": "Mouse/rat hybrid cell lines", "taxon_id": ""},
            {"cellosaurus_id": "CVCL_Y", "name": "WT", "species": "Homo sapiens", "taxon_id": "9606"}]
    table = build_table(rows)
    assert table["pc12"] == [[10116, 1], [9606, 1]]  # the older accession first
    assert table["cos7"] == [[9534, 1]]
    assert "hyb" not in table and "wt" not in table


def test_lookup_and_find(cell_lines):
    assert cell_lines.lookup("hela") == (9606,)
    assert cell_lines.lookup("PC12") == (10116, 9606)
    assert found(cell_lines, "HeLa, NIH-3T3 and HEK 293 cells") == [
        ("HeLa", (9606,)), ("NIH-3T3", (10090,)), ("HEK 293", (9606,))]
    hit = next(cell_lines.find("PC12 cells"))
    assert hit.ambiguous


def test_find_needs_a_cell_line_form(cell_lines):
    assert found(cell_lines, "Jurkat cells") == [("Jurkat", (9606,))]
    assert found(cell_lines, "jurkat") == []  # a plain lower-case word
    assert found(cell_lines, "treated with CCl4") == []  # also a chemical name
    assert found(cell_lines, "CCl4 cells") == [("CCl4", (9606,))]


def test_find_skips_ranges(cell_lines):
    assert found(cell_lines, "U2OS") == [("U2OS", (9606,))]
    assert list(cell_lines.find("U2OS", skip=[(0, 4)])) == []


def test_looks_like_cell_line():
    assert looks_like_cell_line("HeLa", "")
    assert looks_like_cell_line("CHO", "")
    assert not looks_like_cell_line("ABC", " protein")
    assert looks_like_cell_line("ABC", " cells")


def test_an_everyday_word_is_no_cell_line_whatever_follows():
    # Cellosaurus lists lines named `grey`, `ten`, `label`: in captions they are a plot's grey line, ten cells
    assert not looks_like_cell_line("grey", " line indicates")
    assert not looks_like_cell_line("ten", " cells per field")
    assert not looks_like_cell_line("label", " cells")
    assert looks_like_cell_line("hela", " cells")  # a short name always read as a line, in any case
    assert looks_like_cell_line("Grey", " cells")  # written like a name


def test_round_trip(cell_lines, tmp_path):
    path = tmp_path / "cl.json.gz"
    cell_lines.to_disk(path)
    first = path.read_bytes()
    cell_lines.to_disk(path)
    assert path.read_bytes() == first  # deterministic
    loaded = CellLineTable.from_disk(path)
    assert loaded.names == cell_lines.names and loaded.confusable == cell_lines.confusable


@pytest.mark.parametrize("content,problem", [
    (None, "not found"),
    (b"not gzip", "truncated"),
    (gzip.compress(json.dumps({"format": "other"}).encode()), "not a cell line table"),
    (gzip.compress(json.dumps({"format": FORMAT, "version": 99, "names": {}}).encode()), "version"),
])
def test_bad_files_raise_artifact_error(tmp_path, content, problem):
    path = tmp_path / "cl.json.gz"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ArtifactError, match=problem) as err:
        CellLineTable.from_disk(path)
    assert "build_cell_lines" in str(err.value)


def test_a_version_1_table_still_loads_with_a_warning(cell_lines, tmp_path):
    path = tmp_path / "cl.json.gz"
    path.write_bytes(gzip.compress(json.dumps({"format": FORMAT, "version": 1, "source": "x", "names": cell_lines.names,
                                               "confusable": sorted(cell_lines.confusable)}).encode()))
    with pytest.warns(UserWarning, match="build_cell_lines"):
        old = CellLineTable.from_disk(path)
    assert old.names == cell_lines.names and old.confusable == cell_lines.confusable
    assert found(old, "HeLa, NIH-3T3 and HEK 293 cells") == found(cell_lines, "HeLa, NIH-3T3 and HEK 293 cells")


def test_the_saved_table_keeps_the_name_starts(cell_lines, tmp_path):
    cell_lines.to_disk(tmp_path / "cl.json.gz")
    data = json.loads(gzip.decompress((tmp_path / "cl.json.gz").read_bytes()))
    assert data["version"] == VERSION and "hek" in data["starts"].split("\n")
    assert CellLineTable.from_disk(tmp_path / "cl.json.gz")._starts == name_starts(cell_lines.names) | set(cell_lines.names)


def _saved(cell_lines, tmp_path, **changes):
    cell_lines.to_disk(tmp_path / "cl.json.gz")
    data = json.loads(gzip.decompress((tmp_path / "cl.json.gz").read_bytes()))
    data.update(changes)
    return gzip.compress(json.dumps(data).encode())


@pytest.mark.parametrize("changes", [{"offsets": [0, 1]}, {"taxa": [9606]}, {"keys": 5}, {"n_lines": None},
                                     {"confusable": "hela"}])
def test_an_inconsistent_table_raises_artifact_error(cell_lines, tmp_path, changes):
    content = _saved(cell_lines, tmp_path, **changes)
    (tmp_path / "bad.json.gz").write_bytes(content)
    with pytest.raises(ArtifactError, match="not a valid cell line table") as err:
        CellLineTable.from_disk(tmp_path / "bad.json.gz")
    assert "bad.json.gz" in str(err.value) and "build_cell_lines" in str(err.value)


def test_missing_cellosaurus_file(tmp_path):
    with pytest.raises(ArtifactError, match="not found"):
        CellLineTable.from_cellosaurus(tmp_path / "missing.tsv.gz")


def test_find_a_name_glued_to_cells(cell_lines):
    assert found(cell_lines, "lysates of HeLacells and U2OScells") == [("HeLa", (9606,)), ("U2OS", (9606,))]
    assert found(cell_lines, "Jurkatcell") == [("Jurkat", (9606,))]


def test_find_skips_a_digit_name_that_ends_a_hyphenated_word(cell_lines):
    assert found(cell_lines, "HA-NIH-3T3 cells") == [("NIH-3T3", (10090,))]
    assert found(cell_lines, "HA‐BCL‐3T3 cells") == []  # a construct's name, not the line 3T3
    assert found(cell_lines, "GFP-HeLa cells") == [("HeLa", (9606,))]
