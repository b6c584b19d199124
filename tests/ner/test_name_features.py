"""nseen_name_features: per token and label, its place in a listed name (one column per label); saved as text + npz."""
import gzip
import json
from pathlib import Path
from typing import Dict, List

import pytest
import spacy
from spacy.language import Language

from spacy_nseen.errors import ArtifactError
from spacy_nseen.ner.name_features import EXTENSION, POSITIONS, SETTINGS_FILE, position_codes


def write_names(path: Path, names: List[str]) -> str:
    path.write_text("".join(f"{n}\n" for n in names), encoding="utf8")
    return str(path)


@pytest.fixture()
def nlp(tmp_path: Path) -> Language:
    nlp = spacy.blank("en")
    features = nlp.add_pipe("nseen_name_features", config={"labels": ["PROTEIN", "CHEMICAL"]})
    paths = {"PROTEIN": write_names(tmp_path / "p.txt", ["VPS30", "Beclin 1", "mTOR complex 1"]),
             "CHEMICAL": write_names(tmp_path / "c.txt", ["rapamycin", "Beclin"])}
    features.initialize(lambda: [], nlp=nlp, names_paths=paths)
    return nlp


def codes(doc) -> Dict[str, List[int]]:
    return {t.text: row for t, row in zip(doc, doc._.get(EXTENSION).tolist())}


def test_position_codes_mark_begin_inside_last_and_unit() -> None:
    assert position_codes(6, [(0, 1), (2, 5)]).tolist() == [4, 0, 1, 2, 3, 0]
    assert [POSITIONS[c] for c in position_codes(3, [(1, 3)]).tolist()] == ["O", "B", "L"]


def test_each_token_gets_its_place_in_each_list_in_any_case(nlp: Language) -> None:
    doc = nlp("Vps30 with Rapamycin and BECLIN 1 in cells")
    got = codes(doc)
    assert got["Vps30"] == [4, 0]  # PROTEIN unit
    assert got["Rapamycin"] == [0, 4]  # CHEMICAL unit
    assert got["BECLIN"] == [1, 4] and got["1"] == [3, 0]  # PROTEIN begin + CHEMICAL unit; PROTEIN last
    assert got["with"] == got["cells"] == [0, 0]


def test_the_component_sets_no_entities(nlp: Language) -> None:
    assert list(nlp("VPS30 and rapamycin").ents) == []


def test_a_label_without_names_is_always_outside(tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    features = nlp.add_pipe("nseen_name_features", config={"labels": ["PROTEIN", "CHEMICAL"]})
    features.initialize(lambda: [], nlp=nlp, names_paths={"PROTEIN": write_names(tmp_path / "p.txt", ["VPS30"])})
    assert codes(nlp("VPS30 rapamycin")) == {"VPS30": [4, 0], "rapamycin": [0, 0]}


def test_an_empty_doc_has_no_rows(nlp: Language) -> None:
    assert nlp("")._.get(EXTENSION).shape == (0, 2)


def test_names_of_an_unknown_label_are_refused(tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    features = nlp.add_pipe("nseen_name_features", config={"labels": ["PROTEIN"]})
    with pytest.raises(ValueError, match="CELL"):
        features.initialize(lambda: [], nlp=nlp, names_paths={"CELL": write_names(tmp_path / "c.txt", ["HeLa"])})


@pytest.mark.parametrize("labels", [[], ["PROTEIN", "PROTEIN"], [""]])
def test_labels_must_be_distinct_and_non_empty(labels: List[str]) -> None:
    with pytest.raises(ValueError):
        spacy.blank("en").add_pipe("nseen_name_features", config={"labels": labels})


def test_saved_and_loaded_with_the_pipeline(nlp: Language, tmp_path: Path) -> None:
    nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    text = "Vps30 with Rapamycin and BECLIN 1"
    assert codes(loaded(text)) == codes(nlp(text))
    again = spacy.blank("en")
    again.add_pipe("nseen_name_features").from_bytes(nlp.get_pipe("nseen_name_features").to_bytes())
    assert codes(again(text)) == codes(nlp(text))


def test_a_missing_or_foreign_settings_file_names_itself(nlp: Language, tmp_path: Path) -> None:
    features = nlp.get_pipe("nseen_name_features")
    features.to_disk(tmp_path / "f")
    settings_path = tmp_path / "f" / SETTINGS_FILE
    settings = json.loads(settings_path.read_text())
    settings_path.write_text(json.dumps({**settings, "format_version": 99}))
    with pytest.raises(ArtifactError, match=SETTINGS_FILE):
        features.from_disk(tmp_path / "f")
    settings_path.write_text(json.dumps({**settings, "labels": ["CHEMICAL", "PROTEIN"]}))
    with pytest.raises(ArtifactError, match="labels"):
        features.from_disk(tmp_path / "f")
    settings_path.unlink()
    with pytest.raises(ArtifactError, match=SETTINGS_FILE):
        features.from_disk(tmp_path / "f")


def test_a_truncated_list_names_its_file(nlp: Language, tmp_path: Path) -> None:
    features = nlp.get_pipe("nseen_name_features")
    features.to_disk(tmp_path / "f")
    names = tmp_path / "f" / "PROTEIN" / "names.txt.gz"
    names.write_bytes(gzip.compress(gzip.decompress(names.read_bytes()).split(b"\n", 1)[1]))
    with pytest.raises(ArtifactError, match="truncated"):
        features.from_disk(tmp_path / "f")


def test_bytes_of_something_else_are_refused(nlp: Language) -> None:
    with pytest.raises(ArtifactError):
        nlp.get_pipe("nseen_name_features").from_bytes(b"not msgpack")
