import numpy as np
import pytest

from training.common.data_errors import DataFileError
from training.pairs.pair_store import PairStore


def _store():
    store = PairStore(["IKKε", "IKK-epsilon", "RAS", "ras"], [0, 0, 1, 1], ["UniProt:O14920", "UniProt:P01112"], seed=3)
    store.append([0, 2], [1, 3], 1.0, "semantic_positive")
    store.append([0], [2], 0.0, "semantic_negative")
    return store


def test_round_trip(tmp_path):
    store = _store()
    idx = store.add_strings(["RAS", "IKKepsilon", "IKKepsilon"])
    assert idx.tolist() == [2, 4, 4]
    assert store.string_entity.tolist() == [0, 0, 1, 1, -1]
    store.append(idx[:1], idx[1:2], [0.25], "hard_negative_round1")
    store.save(tmp_path / "p.npz")
    loaded = PairStore.load(tmp_path / "p.npz")
    assert loaded.strings.tolist() == ["IKKε", "IKK-epsilon", "RAS", "ras", "IKKepsilon"]
    assert loaded.string_entity.dtype == np.int32 and loaded.left.dtype == np.int32
    assert loaded.label.dtype == np.float32 and loaded.set_id.dtype == np.int8
    assert loaded.counts() == {"semantic_positive": 2, "semantic_negative": 1, "hard_negative_round1": 1}
    assert loaded.seed == 3
    assert loaded.strings[loaded.left].tolist() == ["IKKε", "RAS", "IKKε", "RAS"]
    # hard negatives are appended to a loaded store
    loaded.append([1], [3], 0.0, "hard_negative_round2")
    assert len(loaded) == 5 and loaded.set_names[-1] == "hard_negative_round2"
    with np.load(tmp_path / "p.npz", allow_pickle=False) as data:
        assert {"strings_utf8", "left", "right", "label", "set_id", "set_names", "format_version", "seed"} <= set(data.files)


def test_invalid_pairs():
    store = _store()
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        store.append([0], [1], 1.5, "x")
    with pytest.raises(ValueError, match="out of range"):
        store.append([0], [99], 0.0, "x")
    with pytest.raises(ValueError, match="newlines"):
        store.add_strings(["a\nb"])


def test_missing_or_corrupt_file(tmp_path):
    with pytest.raises(DataFileError, match="not found"):
        PairStore.load(tmp_path / "none.npz")
    _store().save(tmp_path / "p.npz")
    data = (tmp_path / "p.npz").read_bytes()
    (tmp_path / "cut.npz").write_bytes(data[: len(data) // 2])
    with pytest.raises(DataFileError, match="corrupt or truncated"):
        PairStore.load(tmp_path / "cut.npz")
