import json
import pickle
from pathlib import Path

import numpy
import pytest
import torch

from spacy_nseen.encoder.layer import build_char_bilstm_encoder, encode_names, get_char_vocab, set_char_vocab
from spacy_nseen.encoder.vocab import CharVocab
from spacy_nseen.encoder.weights_io import (
    CONFIG_FILE,
    VOCAB_FILE,
    WEIGHTS_FILE,
    build_encoder_from_disk,
    load_encoder_weights,
    read_encoder_config,
    save_encoder,
)
from spacy_nseen.errors import ArtifactError

NAMES = ["FOXP2", "PLCγ2", "IKK-epsilon", "蛋白"]
SHAPE = dict(vocab_size=160, char_width=8, hidden_width=12, depth=2, output_width=10, pooling="mean")


def make(seed: int = 0, **overrides):
    torch.manual_seed(seed)
    model = build_char_bilstm_encoder(**{**SHAPE, **overrides})
    set_char_vocab(model, CharVocab.from_texts(NAMES, 160))
    return model


class WriteMarker:
    """Unpickling this object touches a marker file (the payload of a malicious pickle)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_safetensors_round_trip(tmp_path):
    model = make()
    save_encoder(model, tmp_path)
    assert {p.name for p in tmp_path.iterdir()} == {WEIGHTS_FILE, VOCAB_FILE, CONFIG_FILE}
    assert (tmp_path / WEIGHTS_FILE).read_bytes()[8:9] == b"{"  # a safetensors JSON header, not a pickle
    assert read_encoder_config(tmp_path)["pooling"] == "mean"
    loaded = build_encoder_from_disk(tmp_path)
    numpy.testing.assert_allclose(encode_names(loaded, NAMES), encode_names(model, NAMES), atol=1e-6)
    assert get_char_vocab(loaded).chars == get_char_vocab(model).chars
    other = make(seed=1)
    assert not numpy.allclose(encode_names(other, NAMES), encode_names(model, NAMES))
    load_encoder_weights(other, tmp_path)
    numpy.testing.assert_allclose(encode_names(other, NAMES), encode_names(model, NAMES), atol=1e-6)
    # prediction-time settings may differ from the saved ones
    assert build_encoder_from_disk(tmp_path, batch_size=3).attrs["batch_size"] == 3


@pytest.mark.parametrize("writer", ["pickle", "torch.save"])
def test_a_pickle_in_place_of_the_weights_is_refused_without_running_it(tmp_path, writer):
    save_encoder(make(), tmp_path)
    marker = tmp_path / "payload_ran"
    payload = {"embed.weight": WriteMarker(marker)}
    weights = tmp_path / WEIGHTS_FILE
    if writer == "pickle":
        weights.write_bytes(pickle.dumps(payload))
    else:
        torch.save(payload, weights)
    with pytest.raises(ArtifactError, match="not a readable safetensors file") as err:
        load_encoder_weights(make(seed=1), tmp_path)
    assert err.value.path == weights
    assert not marker.exists()
    with pytest.raises(ArtifactError):
        build_encoder_from_disk(tmp_path)
    assert not marker.exists()
    # control: the payload does run when the file is unpickled, so the test above means something
    if writer == "pickle":
        pickle.loads(weights.read_bytes())
    else:  # (torch.load picks safetensors by the file suffix, so load a copy named .pt)
        copy = tmp_path / "copy.pt"
        copy.write_bytes(weights.read_bytes())
        torch.load(copy, weights_only=False)
    assert marker.exists()


def test_other_shape_is_refused_naming_the_setting(tmp_path):
    save_encoder(make(), tmp_path)
    with pytest.raises(ArtifactError, match="hidden_width: saved 12 vs configured 16") as err:
        load_encoder_weights(make(hidden_width=16), tmp_path)
    assert err.value.path == tmp_path / CONFIG_FILE


def test_weights_that_do_not_fit(tmp_path):
    save_encoder(make(), tmp_path)
    from safetensors.torch import save_file

    save_file({"embed.weight": torch.zeros(160, 8)}, str(tmp_path / WEIGHTS_FILE))
    with pytest.raises(ArtifactError, match="do not fit"):
        load_encoder_weights(make(), tmp_path)


def test_missing_and_corrupt_files(tmp_path):
    with pytest.raises(ArtifactError, match="encoder config file not found"):
        build_encoder_from_disk(tmp_path)
    save_encoder(make(), tmp_path)
    weights = tmp_path / WEIGHTS_FILE
    data = weights.read_bytes()
    weights.write_bytes(data[: len(data) // 2])
    with pytest.raises(ArtifactError, match="not a readable safetensors file") as err:
        load_encoder_weights(make(), tmp_path)
    assert err.value.path == weights
    weights.unlink()
    with pytest.raises(ArtifactError, match="weights file not found"):
        load_encoder_weights(make(), tmp_path)
    save_encoder(make(), tmp_path)
    (tmp_path / VOCAB_FILE).unlink()
    with pytest.raises(ArtifactError, match="vocabulary file not found"):
        load_encoder_weights(make(), tmp_path)
    config = tmp_path / CONFIG_FILE
    meta = json.loads(config.read_text())
    config.write_text(json.dumps({**meta, "format_version": 0}))
    with pytest.raises(ArtifactError, match="artifact format 0") as err:
        read_encoder_config(tmp_path)
    assert err.value.path == config
    config.write_text("[]")
    with pytest.raises(ArtifactError, match="not a valid encoder config"):
        read_encoder_config(tmp_path)


def test_saving_needs_a_vocabulary(tmp_path):
    with pytest.raises(ValueError, match="vocabulary"):
        save_encoder(build_char_bilstm_encoder(**SHAPE), tmp_path)
