"""The registered thinc layer around `CharBiLSTMEncoder`: strings in, unit vectors out.

`spacy_nseen.CharBiLSTMEncoder.v1` builds a `Model[List[str], Floats2d]`. The character vocabulary is
set at initialisation (`set_char_vocab`); prediction sorts names by length, encodes them in batches under
`torch.inference_mode` and returns rows in input order.
"""

import functools
import inspect
import logging
import warnings
from dataclasses import asdict
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, cast

import numpy
import torch
from spacy.util import registry
from thinc.api import ArgsKwargs, Model, PyTorchWrapper_v2, torch2xp, xp2torch
from thinc.types import Floats2d

from ..errors import NotInitializedError
from .char_encoder import CharBiLSTMEncoder, EncoderConfig
from .vocab import CharVocab

ARCHITECTURE = "spacy_nseen.CharBiLSTMEncoder.v1"
PRECISIONS = ("fp32", "bf16", "int8")
logger = logging.getLogger("spacy_nseen")


@registry.architectures(ARCHITECTURE)
def build_char_bilstm_encoder(
    vocab_size: int = 512,
    char_width: int = EncoderConfig.char_width,
    hidden_width: int = EncoderConfig.hidden_width,
    depth: int = EncoderConfig.depth,
    output_width: int = EncoderConfig.output_width,
    dropout: float = EncoderConfig.dropout,
    pooling: str = EncoderConfig.pooling,
    max_length: int = 64,
    batch_size: int = 128,
    precision: str = "fp32",
) -> Model[List[str], Floats2d]:
    """Build the NSEEN character encoder (defaults: the paper's 4 BiLSTM layers + a dense layer).

    vocab_size (int): rows of the character table (padding and unknown included): `EncoderConfig.n_chars`.
    char_width, hidden_width, depth, output_width, dropout, pooling: the module's `EncoderConfig`.
    max_length (int): names are cut to this many characters (documented truncation rule).
    batch_size (int): names per forward pass at prediction time (128: measured fastest on this CPU, 20% faster than 512).
    precision (str): "fp32", "bf16" (autocast) or "int8" (dynamic quantisation of LSTM and dense).
    RETURNS (Model[List[str], Floats2d]): the layer.
    """
    config = EncoderConfig(vocab_size, char_width, hidden_width, depth, output_width, dropout, pooling)
    return encoder_layer(config, max_length=max_length, batch_size=batch_size, precision=precision)


def encoder_defaults() -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): the default of each argument of `spacy_nseen.CharBiLSTMEncoder.v1` (its
    signature): the one source of the encoder shape's defaults, which the trainers' options take."""
    return {name: param.default for name, param in inspect.signature(build_char_bilstm_encoder).parameters.items()}


def encoder_layer(
    config: EncoderConfig, *, max_length: int = 64, batch_size: int = 128, precision: str = "fp32"
) -> Model[List[str], Floats2d]:
    """RETURNS (Model[List[str], Floats2d]): the layer around a `CharBiLSTMEncoder` of this config (see
    `build_char_bilstm_encoder` for the other arguments)."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, got {precision!r}")
    if max_length < 1 or batch_size < 1:
        raise ValueError("max_length and batch_size must be positive")
    shape = {"vocab_size": config.n_chars, **{k: v for k, v in asdict(config).items() if k != "n_chars"}}
    module = CharBiLSTMEncoder(config)
    wrapped = PyTorchWrapper_v2(module, convert_inputs=_convert_inputs, convert_outputs=_convert_outputs)
    return Model(
        "nseen_char_encoder",
        _forward,
        layers=[wrapped],
        dims={"nO": config.output_width},
        attrs={
            "char_vocab": None,
            "encoder_config": {**shape, "max_length": max_length},
            "max_length": max_length,
            "batch_size": batch_size,
            "precision": precision,
            "quantized": None,
        },
    )


def get_torch_module(model: Model) -> CharBiLSTMEncoder:
    """RETURNS (CharBiLSTMEncoder): the torch module inside the layer (for training and saving)."""
    return model.layers[0].shims[0]._model


def get_char_vocab(model: Model) -> Optional[CharVocab]:
    return model.attrs["char_vocab"]


def set_char_vocab(model: Model, vocab: CharVocab) -> None:
    """Attach the character vocabulary; its capacity must equal the embedding table."""
    expected = model.attrs["encoder_config"]["vocab_size"]
    if vocab.capacity != expected:
        raise ValueError(f"the character vocabulary has capacity {vocab.capacity}, the encoder expects {expected}")
    model.attrs["char_vocab"] = vocab


def set_precision(model: Model, precision: str) -> None:
    """Choose fp32, bf16 autocast or dynamic int8 for prediction (training always runs in fp32)."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, got {precision!r}")
    model.attrs["precision"] = precision
    model.attrs["quantized"] = None


def encoder_config(model: Model) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): the shape-defining settings of the layer."""
    return dict(model.attrs["encoder_config"])


def quantize_dynamic_int8(module: torch.nn.Module) -> torch.nn.Module:
    """RETURNS (torch.nn.Module): a copy of `module` with dynamic int8 LSTM and Linear layers.

    torch 2.13 marks `torch.ao.quantization` deprecated in favour of torchao, whose dynamic int8 covers
    Linear layers only, not the LSTMs that do most of this encoder's work: there is no replacement that
    keeps the behaviour yet, so the call stays and its two deprecation notices are silenced here only.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"torch\.ao\.quantization is deprecated", category=DeprecationWarning)
        warnings.filterwarnings("ignore", message=r"torch\.quantize_per_tensor", category=UserWarning)
        from torch.ao.quantization import quantize_dynamic

        return quantize_dynamic(module, {torch.nn.LSTM, torch.nn.Linear}, dtype=torch.qint8)


@functools.lru_cache(maxsize=1)
def bf16_lstm_supported() -> bool:
    """RETURNS (bool): whether this CPU runs an LSTM under bf16 autocast. On CPUs without bf16 support
    oneDNN refuses the LSTM primitive; "bf16" then falls back to fp32 (the same vectors up to bf16 rounding)
    and says so once in the `spacy_nseen` log."""
    lstm = torch.nn.LSTM(4, 4, batch_first=True, bidirectional=True)
    try:
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
            lstm(torch.zeros(1, 2, 4))
    except RuntimeError as err:
        logger.warning(
            "bf16 LSTMs are not supported on this CPU (%s): encoding in fp32 instead", str(err).split(".")[0]
        )
        return False
    return True


def _inference_module(model: Model) -> torch.nn.Module:
    module = get_torch_module(model)
    if model.attrs["precision"] != "int8":
        return module
    if model.attrs["quantized"] is None:
        module.eval()
        model.attrs["quantized"] = quantize_dynamic_int8(module)
    return model.attrs["quantized"]


def encode_names(model: Model, names: Sequence[str]) -> numpy.ndarray:
    """Embed names without gradients, in length-sorted batches.

    RETURNS (numpy.ndarray): float32 (len(names), nO), rows L2-normalised, in input order.
    """
    vocab = get_char_vocab(model)
    if vocab is None:
        raise NotInitializedError("the encoder has no character vocabulary: initialize or load it first")
    width = model.get_dim("nO")
    out = numpy.zeros((len(names), width), dtype=numpy.float32)
    if not names:
        return out
    max_length = model.attrs["max_length"]
    batch_size = model.attrs["batch_size"]
    order = sorted(range(len(names)), key=lambda i: min(len(names[i]), max_length))
    module = _inference_module(model)
    was_training = module.training
    module.eval()
    use_bf16 = model.attrs["precision"] == "bf16" and bf16_lstm_supported()
    with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_bf16):
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            ids, lengths = vocab.batch([names[i] for i in rows], max_length)
            vectors = module(torch.from_numpy(ids), torch.from_numpy(lengths))
            out[rows] = vectors.float().numpy()
    module.train(was_training)
    return out


def encoder_input_keys(model: Model, names: Sequence[str]) -> List[str]:
    """RETURNS (List[str]): for each name, what the encoder reads of it (`CharVocab.input_key`): names with equal
    keys are the same input, and so get the same vector."""
    vocab = get_char_vocab(model)
    if vocab is None:
        raise NotInitializedError("the encoder has no character vocabulary: initialize or load it first")
    max_length = model.attrs["max_length"]
    return [vocab.input_key(name, max_length) for name in names]


def _forward(model: Model, names: List[str], is_train: bool) -> Tuple[Floats2d, Callable]:
    if not is_train:
        return model.ops.asarray2f(cast(Floats2d, encode_names(model, names))), _no_backprop
    vocab = get_char_vocab(model)
    if vocab is None:
        raise NotInitializedError("the encoder has no character vocabulary: initialize or load it first")
    ids, lengths = vocab.batch(names, model.attrs["max_length"])
    vectors, backprop_torch = model.layers[0]((ids, lengths), is_train=True)

    def backprop(d_vectors: Floats2d) -> List[str]:
        backprop_torch(d_vectors)
        return names

    return vectors, backprop


def _no_backprop(d_vectors: Floats2d) -> List[str]:
    raise ValueError("the encoder was called with is_train=False: there is nothing to backpropagate")


def _convert_inputs(model: Model, inputs: Tuple[numpy.ndarray, numpy.ndarray], is_train: bool):
    ids, lengths = inputs
    args = ArgsKwargs(args=(torch.from_numpy(ids), torch.from_numpy(lengths)), kwargs={})
    return args, lambda d_inputs: inputs


def _convert_outputs(model: Model, inputs_outputs, is_train: bool):
    _, vectors = inputs_outputs

    def convert_for_torch_backward(d_vectors: Floats2d) -> ArgsKwargs:
        return ArgsKwargs(args=(vectors,), kwargs={"grad_tensors": xp2torch(d_vectors)})

    return torch2xp(vectors), convert_for_torch_backward
