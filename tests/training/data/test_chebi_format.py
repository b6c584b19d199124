import pytest

from training.common.data_errors import DataFileError
from training.data.chebi_format import read_chebi_flat_files, siblings


def test_read_flat_files(fixtures):
    data = read_chebi_flat_files(
        fixtures / "chebi_compounds.tsv", fixtures / "chebi_names.tsv", fixtures / "chebi_relation.tsv"
    )
    assert set(data.entities) == {"CHEBI:15377", "CHEBI:33579", "CHEBI:29356", "CHEBI:16236", "CHEBI:99999"}
    assert data.secondary_to_primary == {"CHEBI:10743": "CHEBI:15377"}
    water = data.entities["CHEBI:15377"]
    assert water.names == [
        ("water", "primary"),
        ("H2O", "synonym"),
        ("oxidane", "iupac_name"),
        ("dihydrogen oxide", "synonym"),  # given on the secondary id
    ]
    assert water.star == 3
    assert water.parents == ["CHEBI:33579"]  # has_part is not is_a
    assert data.entities["CHEBI:99999"].star == 1
    assert ("mystery compound", "brand_name") in data.entities["CHEBI:99999"].names
    assert data.n_unknown_names == 1  # compound 12345 does not exist
    assert siblings(data.entities) == {"CHEBI:33579": {"CHEBI:15377", "CHEBI:16236"}}


def test_relation_orientation_option(fixtures):
    data = read_chebi_flat_files(
        fixtures / "chebi_compounds.tsv",
        fixtures / "chebi_names.tsv",
        fixtures / "chebi_relation.tsv",
        child_column="INIT_ID",
    )
    assert sorted(data.entities["CHEBI:33579"].parents) == ["CHEBI:15377", "CHEBI:16236"]


def test_wrong_file(fixtures, tmp_path):
    with pytest.raises(DataFileError, match="missing column"):
        read_chebi_flat_files(fixtures / "chebi_names.tsv", fixtures / "chebi_names.tsv")
    with pytest.raises(DataFileError, match="file not found"):
        read_chebi_flat_files(tmp_path / "compounds.tsv", fixtures / "chebi_names.tsv")
