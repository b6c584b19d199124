import pytest

from training.common.data_errors import DataFileError
from training.data.reference_rows import ReferenceRows
from training.data.uniprot_secondary import (
    curie_map,
    map_reference_rows,
    parse_secondary_lines,
    read_secondary_accessions,
    read_uniprot_secondary_map,
    write_secondary_tsv,
)

SEC_AC = """Description: Secondary accession numbers: index
Secondary AC                  Primary AC
____________                  __________
A0A021WW06                        P40417
Q61769                            E9PVX6
P12345                            Q11111
P12345                            Q22222
"""


def test_parse_keeps_one_to_one_accession_lines_only():
    # prose and rulers are skipped; P12345 was split into two entries and names neither
    assert parse_secondary_lines(SEC_AC.splitlines()) == {"A0A021WW06": "P40417", "Q61769": "E9PVX6"}


def test_read_file_and_tsv_round_trip(tmp_path):
    path = tmp_path / "sec_ac.txt"
    path.write_text(SEC_AC)
    mapping = read_secondary_accessions(path)
    assert read_uniprot_secondary_map(path) == {"UniProt:A0A021WW06": "UniProt:P40417",
                                                "UniProt:Q61769": "UniProt:E9PVX6"}
    tsv = tmp_path / "secondary_to_primary.tsv.gz"
    assert write_secondary_tsv(mapping, tsv) == 2
    assert read_uniprot_secondary_map(tsv) == curie_map(mapping)


def test_missing_or_empty_file_is_a_clear_error(tmp_path):
    with pytest.raises(DataFileError, match="file not found"):
        read_secondary_accessions(tmp_path / "nope.txt")
    (tmp_path / "empty.txt").write_text("no accessions here\n")
    with pytest.raises(DataFileError, match="SECONDARY PRIMARY"):
        read_secondary_accessions(tmp_path / "empty.txt")


def test_reference_rows_move_to_the_current_accession_and_merge():
    rows = ReferenceRows()
    rows.add("UniProt:Q61769", "Ki-67", "recommended")
    rows.add("UniProt:E9PVX6", "Mki67", "gene_primary")
    rows.add("UniProt:E9PVX6", "Ki-67", "alternative")
    rows.add("UniProt:P04637", "p53", "alternative")
    rows.taxa.update({"UniProt:Q61769": 10090, "UniProt:E9PVX6": 10090, "UniProt:P04637": 9606})
    rows.add_family("F:1", "UniProt:Q61769")
    out, counts = map_reference_rows(rows, {"UniProt:Q61769": "UniProt:E9PVX6"})
    assert counts == {"mapped": 1, "merged": 1}
    assert out.entity_ids() == ["UniProt:E9PVX6", "UniProt:P04637"]
    assert ("UniProt:E9PVX6", "Ki-67", "recommended") in out.rows and len(out.rows) == 3
    assert out.families == [("F:1", "UniProt:E9PVX6")]
    assert out.taxa == {"UniProt:E9PVX6": 10090, "UniProt:P04637": 9606}
    same, none = map_reference_rows(rows, {"UniProt:X": "UniProt:Y"})
    assert same is rows and none == {"mapped": 0, "merged": 0}
