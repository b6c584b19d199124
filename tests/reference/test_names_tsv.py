import gzip

import pytest

from spacy_nseen.errors import ArtifactError
from spacy_nseen.reference.names_tsv import read_names_tsv


def test_header_is_optional_and_kind_too(tmp_path):
    with_header = tmp_path / "a.tsv"
    with_header.write_text("\ufeffkb_id\tname\tkind\nC1\tHeLa\tname\n\nC1\tHeLa\tname\nC2\tU2OS\n", encoding="utf8")
    without = tmp_path / "b.tsv.gz"
    with gzip.open(without, "wt", encoding="utf8") as f:
        f.write("C1\tHeLa\tname\nC2\tU2OS\textra\tcolumns\n")
    a, b = read_names_tsv(with_header), read_names_tsv(without)
    assert list(a.names) == list(b.names) == ["HeLa", "U2OS"]  # duplicates and blank lines dropped
    assert list(a.kb_ids) == ["C1", "C2"] and a.kinds == ["name", ""]


@pytest.mark.parametrize("content,problem", [
    ("kb_id\tname\nC1 HeLa\n", "line 2 has no tab"),
    ("C1\t \n", "line 1 has an empty name"),
    ("\tHeLa\n", "line 1 has an empty kb_id"),
    ("kb_id\tname\tkind\n", "contains no names"),
])
def test_bad_rows_name_the_file_and_line(tmp_path, content, problem):
    path = tmp_path / "names.tsv"
    path.write_text(content, encoding="utf8")
    with pytest.raises(ArtifactError, match=problem) as err:
        read_names_tsv(path)
    assert err.value.path == path


def test_missing_and_undecodable_files(tmp_path):
    with pytest.raises(ArtifactError, match="not found"):
        read_names_tsv(tmp_path / "nope.tsv")
    latin1 = tmp_path / "latin1.tsv"
    latin1.write_bytes("C1\tcaf\xe9\n".encode("latin-1"))
    with pytest.raises(ArtifactError, match="cannot be read"):
        read_names_tsv(latin1)
