import numpy
import pytest

from spacy_nseen.errors import ArtifactError
from spacy_nseen.token_index import NameTokenIndex, name_terms

NAMES = [
    "Autophagy-related protein LC3 A",
    "Autophagy-related protein LC3 B",
    "HLC3",
    "Apoptosis inhibitor survivin",
    "PLC-gamma-2",
    "Lc3 synthase",
]


def test_terms_are_words_and_joined_adjacent_words() -> None:
    assert name_terms("LC3 B") == ["lc3", "b", "lc3b"]
    assert name_terms("PLCγ2") == name_terms("PLC-gamma-2") == ["plc", "gamma", "2", "plcgamma", "gamma2"]
    assert name_terms("") == [] and name_terms("—…") == []


def test_a_word_inside_a_name_beats_a_similar_string() -> None:
    index = NameTokenIndex().fit(NAMES)
    ids, scores = index.top_k(["LC3", "LC3B", "survivin", "xyz"], 3)
    assert 2 not in ids[0]  # HLC3 shares no word with LC3
    assert set(ids[0]) == {0, 1, 5}
    assert ids[1, 0] == 1  # "LC3B" meets the joined words "LC3 B"
    assert ids[2, 0] == 3 and ids[2, 1] == -1
    assert (ids[3] == -1).all() and (scores[3] == 0).all()


def test_scores_are_cosines_and_pair_scores_agree_with_top_k() -> None:
    index = NameTokenIndex().fit(NAMES)
    ids, scores = index.top_k(["LC3 B"], 2)
    (pair,) = index.pair_scores(["LC3 B"], [list(ids[0])])
    numpy.testing.assert_allclose(pair, scores[0], rtol=1e-5)
    (self_score,) = index.pair_scores(["HLC3"], [[2]])
    assert self_score[0] == pytest.approx(1.0, abs=1e-5)
    assert ((scores >= 0) & (scores <= 1.0 + 1e-6)).all()


def test_disk_round_trip_and_errors(tmp_path) -> None:
    index = NameTokenIndex().fit(NAMES)
    path = tmp_path / "tokens.npz"
    index.to_disk(path)
    loaded = NameTokenIndex.from_disk(path)
    assert loaded.top_k(["LC3"], 3)[0].tolist() == index.top_k(["LC3"], 3)[0].tolist()
    with pytest.raises(ArtifactError, match="not found"):
        NameTokenIndex.from_disk(tmp_path / "missing.npz")
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(ArtifactError, match="tokens.npz"):
        NameTokenIndex.from_disk(path)
