import json
from pathlib import Path

import pytest

from spacy_nseen.about import ARTIFACT_FORMAT_VERSION
from spacy_nseen.artifact_meta import read_artifact_meta
from spacy_nseen.errors import ArtifactError


def test_a_current_file_gives_its_metadata_and_config(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text(json.dumps({"format_version": ARTIFACT_FORMAT_VERSION, "config": {"width": 8}, "extra": 1}))
    meta, config = read_artifact_meta(path, "model config", "Train it again")
    assert config == {"width": 8} and meta["extra"] == 1


@pytest.mark.parametrize(
    "content, problem",
    [
        (None, "model config not found"),
        ("{", "not a valid model config"),
        (json.dumps({"config": {}}), "not a valid model config"),
        (json.dumps({"format_version": -1, "config": {}}), "artifact format -1"),
    ],
)
def test_a_missing_invalid_or_other_version_file_is_an_error_naming_it(tmp_path: Path, content, problem) -> None:
    path = tmp_path / "model.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ArtifactError, match=problem) as err:
        read_artifact_meta(path, "model config", "Train it again")
    assert str(path) in str(err.value) and "Train it again" in str(err.value)


def test_a_directory_in_the_file_s_place_is_an_error_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "model.json").mkdir()
    with pytest.raises(ArtifactError, match="not found"):
        read_artifact_meta(tmp_path / "model.json", "model config", "Train it again")
