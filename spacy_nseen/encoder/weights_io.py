"""Saving and loading a trained encoder: safetensors weights, JSON vocabulary and config. No pickle."""

import json
from pathlib import Path
from typing import Any, Dict, Union

from safetensors import SafetensorError
from safetensors.torch import load_file, save_file
from spacy.util import registry
from thinc.api import Model

from ..about import ARTIFACT_FORMAT_VERSION, __version__
from ..artifact_meta import read_artifact_meta
from ..errors import ArtifactError
from .layer import ARCHITECTURE, encoder_config, get_char_vocab, get_torch_module, set_char_vocab
from .vocab import CharVocab

WEIGHTS_FILE = "encoder.safetensors"
VOCAB_FILE = "char_vocab.json"
CONFIG_FILE = "encoder.json"
RETRAIN = "Re-train the encoder (the project's train step) or copy its complete directory again."


def save_encoder(model: Model, directory: Union[str, Path]) -> None:
    """Write the encoder's weights, vocabulary and shape settings into a directory."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    vocab = get_char_vocab(model)
    if vocab is None:
        raise ValueError("cannot save an encoder without a character vocabulary")
    module = get_torch_module(model)
    state = {key: value.detach().contiguous().cpu() for key, value in module.state_dict().items()}
    save_file(state, str(directory / WEIGHTS_FILE), metadata={"format_version": str(ARTIFACT_FORMAT_VERSION)})
    vocab.to_disk(directory / VOCAB_FILE)
    meta = {
        "format_version": ARTIFACT_FORMAT_VERSION,
        "spacy_nseen_version": __version__,
        "architecture": ARCHITECTURE,
        "config": encoder_config(model),
    }
    (directory / CONFIG_FILE).write_text(json.dumps(meta, indent=2), encoding="utf8")


def read_encoder_config(directory: Union[str, Path]) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): the shape settings a saved encoder was trained with."""
    return read_artifact_meta(Path(directory) / CONFIG_FILE, "encoder config file", RETRAIN)[1]


def encoder_block(directory: Union[str, Path]) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): the `[components.nseen_linker.encoder]` block that fits a saved encoder or
    linker directory, read from its own `encoder.json`: `nlp.add_pipe("nseen_linker", config={"kbs": ...,
    "encoder": encoder_block(path)})`, so the sizes are never copied by hand."""
    return {"@architectures": ARCHITECTURE, **read_encoder_config(directory)}


def build_encoder_from_disk(directory: Union[str, Path], **overrides: Any) -> Model:
    """Build the layer with the saved shape settings and load its weights and vocabulary."""
    config = read_encoder_config(directory)
    build = registry.architectures.get(ARCHITECTURE)
    model = build(**config, **overrides)
    load_encoder_weights(model, directory)
    return model


def load_encoder_weights(model: Model, directory: Union[str, Path]) -> None:
    """Load saved weights and vocabulary into a layer, checking that the shapes match.

    Raises ArtifactError naming the file when a file is missing, corrupt, or of another shape.
    """
    directory = Path(directory)
    saved = read_encoder_config(directory)
    expected = encoder_config(model)
    shape_keys = ("vocab_size", "char_width", "hidden_width", "depth", "output_width", "pooling")
    mismatched = {k: (saved.get(k), expected.get(k)) for k in shape_keys if saved.get(k) != expected.get(k)}
    if mismatched:
        detail = ", ".join(f"{k}: saved {a!r} vs configured {b!r}" for k, (a, b) in mismatched.items())
        raise ArtifactError(
            directory / CONFIG_FILE,
            f"the saved encoder has another shape ({detail})",
            "Set the component's [encoder] block to the saved values, or load the matching encoder.",
        )
    weights_path = directory / WEIGHTS_FILE
    if not weights_path.exists():
        raise ArtifactError(weights_path, "encoder weights file not found", RETRAIN)
    try:
        state = load_file(str(weights_path))
    except (SafetensorError, OSError, ValueError) as err:
        raise ArtifactError(weights_path, f"not a readable safetensors file ({err})", RETRAIN) from None
    module = get_torch_module(model)
    own = module.state_dict()
    if set(state) != set(own) or any(tuple(state[k].shape) != tuple(own[k].shape) for k in own):
        raise ArtifactError(weights_path, "the weights do not fit the encoder (other sizes or layers)", RETRAIN)
    vocab_path = directory / VOCAB_FILE
    vocab = CharVocab.from_disk(vocab_path)
    if vocab.capacity != expected["vocab_size"]:
        raise ArtifactError(
            vocab_path,
            f"the vocabulary has capacity {vocab.capacity}, the encoder's vocab_size is {expected['vocab_size']}",
            RETRAIN,
        )
    module.load_state_dict(state)
    module.eval()
    set_char_vocab(model, vocab)
