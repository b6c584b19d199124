import gzip
import math
from pathlib import Path

import pytest

from spacy_nseen.errors import ArtifactError
from spacy_nseen.synonyms.review_file import (
    DISCOVERED_KIND,
    ReviewRow,
    read_review_file,
    write_review_file,
)


def rows() -> list:
    return [
        ReviewRow("LC3B", "uniprot", "Q9GZQ8", "Microtubule-associated proteins 1A/1B light chain 3B", 0.91, 0.62,
                  0.88, 14, 9, ["GFP-[[LC3B]] puncta\tincreased", "[[LC3B]] lipidation"], ["PMC1", "PMC2"]),
        ReviewRow("hTau", "uniprot", "P10636", "Microtubule-associated protein tau", 0.55, n_mentions=2,
                  n_documents=1, decision="reject"),
    ]


@pytest.mark.parametrize("name", ["review.tsv", "review.tsv.gz"])
def test_rows_and_metadata_survive_a_round_trip(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    assert write_review_file(path, rows(), {"corpus": "captions.tsv.gz", "kb": "uniprot"}) == 2
    review = read_review_file(path)
    assert review.metadata["corpus"] == "captions.tsv.gz" and review.metadata["version"] == "1"
    first, second = review.rows
    assert first.mention == "LC3B" and first.score == 0.91 and first.n_documents == 9
    assert first.examples == ["GFP-[[LC3B]] puncta increased", "[[LC3B]] lipidation"]
    assert first.documents == ["PMC1", "PMC2"]
    assert math.isnan(second.string_score) and second.decision == "reject"


def test_only_accepted_rows_become_discovered_names(tmp_path: Path) -> None:
    path = tmp_path / "review.tsv"
    write_review_file(path, rows(), {})
    edited = path.read_text(encoding="utf8").replace("\tLC3B\t", "Accept\tLC3B\t", 1)
    path.write_text(edited, encoding="utf8")
    assert read_review_file(path).accepted_names() == [("Q9GZQ8", "LC3B", DISCOVERED_KIND)]
    assert read_review_file(path).accepted_names("chebi") == []


@pytest.mark.parametrize(
    "content, problem",
    [
        ("", "no header row"),
        ("mention\tkb\n", "not the header row"),
        ("decision\tmention\tkb\tkb_id\nmaybe\tLC3B\tuniprot\tQ9GZQ8\n", "line 2: decision 'maybe'"),
        ("decision\tmention\tkb\tkb_id\tentity_name\tscore\naccept\tLC3B\tuniprot\tQ9GZQ8\tx\thigh\n", "not a number"),
        ("decision\tmention\tkb\tkb_id\naccept\t\tuniprot\tQ9GZQ8\n", "must not be empty"),
        ("# version=2\ndecision\tmention\tkb\tkb_id\n", "format version 2"),
    ],
)
def test_a_malformed_file_is_an_error_naming_the_file_and_line(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "review.tsv"
    path.write_text(content, encoding="utf8")
    with pytest.raises(ArtifactError, match=problem) as err:
        read_review_file(path)
    assert str(path) in str(err.value)


def test_a_missing_or_truncated_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ArtifactError, match="not found"):
        read_review_file(tmp_path / "absent.tsv")
    truncated = tmp_path / "review.tsv.gz"
    truncated.write_bytes(gzip.compress(b"decision\tmention\tkb\tkb_id\n" * 50)[:30])
    with pytest.raises(ArtifactError, match="cannot be read"):
        read_review_file(truncated)
