"""The registered thinc layer around `SynonymNet`: pairs of context lists in, synonym scores out; saving and loading
it (safetensors weights, JSON vocabulary and shape; no pickle).

`spacy_nseen.SynonymNet.v1` builds a `Model[List[ContextPair], Floats1d]`: each input is the contexts of two
names (`MentionContext`s), each output the cosine of their aggregated contexts (eq. 4 of the paper), in [-1, 1].
The word vocabulary is set when the model is trained (`set_word_vocab`); prediction runs under
`torch.inference_mode` in batches.
"""

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, cast

import numpy
import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file
from spacy.util import registry
from thinc.api import Model
from thinc.types import Floats1d

from ..about import ARTIFACT_FORMAT_VERSION, __version__
from ..artifact_meta import read_artifact_meta
from ..errors import ArtifactError, NotInitializedError
from .contexts import MentionContext
from .synonymnet import SynonymNet, SynonymNetConfig
from .word_vocab import WordVocab, pad

ARCHITECTURE = "spacy_nseen.SynonymNet.v1"
WEIGHTS_FILE = "synonymnet.safetensors"
CONFIG_FILE = "synonymnet.json"
RETRAIN = "Train the synonym model again (python -m training.synonyms.train_synonymnet) or copy its directory again"
ContextPair = Tuple[Sequence[MentionContext], Sequence[MentionContext]]


@registry.architectures(ARCHITECTURE)
def build_synonymnet(
    n_words: int = 20003,
    word_width: int = 64,
    hidden_width: int = 64,
    leaky: bool = True,
    dropout: float = 0.1,
    window: int = 20,
    max_contexts: int = 8,
    batch_size: int = 64,
) -> Model[List[ContextPair], Floats1d]:
    """Build the SynonymNet layer.

    n_words, word_width, hidden_width, leaky, dropout: the module's `SynonymNetConfig`.
    window (int): words read on each side of the mention.
    max_contexts (int): contexts per name (P and Q); more are cut, in the order given.
    batch_size (int): pairs per forward pass at prediction time.
    RETURNS (Model[List[ContextPair], Floats1d]): the layer.
    """
    config = SynonymNetConfig(n_words, word_width, hidden_width, leaky, dropout)
    if window < 1 or max_contexts < 1 or batch_size < 1:
        raise ValueError("window, max_contexts and batch_size must be positive")
    return Model(
        "nseen_synonymnet",
        _forward,
        attrs={
            "module": SynonymNet(config),
            "word_vocab": None,
            "shape": {**asdict(config), "window": window, "max_contexts": max_contexts, "batch_size": batch_size},
        },
    )


def get_torch_module(model: Model) -> SynonymNet:
    """RETURNS (SynonymNet): the torch module inside the layer."""
    return model.attrs["module"]


def get_word_vocab(model: Model) -> WordVocab:
    """RETURNS (WordVocab): the layer's vocabulary; NotInitializedError when none is set."""
    vocab = model.attrs["word_vocab"]
    if vocab is None:
        raise NotInitializedError("the synonym model has no word vocabulary: train or load it first")
    return vocab


def set_word_vocab(model: Model, vocab: WordVocab) -> None:
    """Attach the word vocabulary; its size must equal the embedding table."""
    if vocab.size != model.attrs["shape"]["n_words"]:
        raise ValueError(f"the vocabulary has {vocab.size} rows, the model {model.attrs['shape']['n_words']}")
    model.attrs["word_vocab"] = vocab


def context_tensors(
    vocab: WordVocab, groups: Sequence[Sequence[MentionContext]], window: int, max_contexts: int
) -> Tuple[Tuple[torch.Tensor, ...], torch.Tensor, List[int]]:
    """The encoder inputs of several names' contexts, flattened, and where each name's contexts are.

    RETURNS (Tuple): ((left, left_lengths, right, right_lengths), mask (n_groups, P) bool, contexts per group).
    """
    lefts: List[List[int]] = []
    rights: List[List[int]] = []
    counts: List[int] = []
    for group in groups:
        kept = list(group)[:max_contexts]
        counts.append(len(kept))
        for context in kept:
            left, right = vocab.context_ids(context.text, context.start, context.end, window)
            lefts.append(left)
            rights.append(right)
    if not lefts:
        lefts, rights = [[2]], [[2]]
    left_ids, left_lengths = pad(lefts)
    right_ids, right_lengths = pad(rights)
    width = max(max(counts, default=1), 1)
    mask = torch.zeros((len(groups), width), dtype=torch.bool)
    for i, count in enumerate(counts):
        mask[i, :count] = True
    tensors = tuple(torch.from_numpy(a) for a in (left_ids, left_lengths, right_ids, right_lengths))
    return tensors, mask, counts


def grouped(vectors: torch.Tensor, counts: Sequence[int], width: int) -> torch.Tensor:
    """RETURNS (torch.Tensor): (n_groups, width, d) the flat context vectors, each group padded with zeros."""
    out = vectors.new_zeros((len(counts), width, vectors.shape[-1]))
    offset = 0
    for i, count in enumerate(counts):
        out[i, :count] = vectors[offset : offset + count]
        offset += count
    return out


def pair_scores_torch(model: Model, pairs: Sequence[ContextPair]) -> torch.Tensor:
    """RETURNS (torch.Tensor): float (len(pairs),) scores with gradients (training mode is the caller's)."""
    vocab, shape, module = get_word_vocab(model), model.attrs["shape"], get_torch_module(model)
    groups = [side for pair in pairs for side in pair]
    tensors, mask, counts = context_tensors(vocab, groups, shape["window"], shape["max_contexts"])
    vectors = module.encode(*tensors)
    stacked = grouped(vectors, counts, mask.shape[1])
    h, g = stacked[0::2], stacked[1::2]
    return module(h, mask[0::2], g, mask[1::2])


def pair_scores(model: Model, pairs: Sequence[ContextPair]) -> numpy.ndarray:
    """Score pairs without gradients, in batches; a pair with no context on a side scores NaN.

    RETURNS (numpy.ndarray): float32 (len(pairs),).
    """
    out = numpy.full(len(pairs), numpy.nan, dtype=numpy.float32)
    todo = [i for i, (first, second) in enumerate(pairs) if len(first) and len(second)]
    module = get_torch_module(model)
    was_training = module.training
    module.eval()
    batch_size = model.attrs["shape"]["batch_size"]
    with torch.inference_mode():
        for start in range(0, len(todo), batch_size):
            rows = todo[start : start + batch_size]
            out[rows] = pair_scores_torch(model, [pairs[i] for i in rows]).float().numpy()
    module.train(was_training)
    return out


def encode_contexts(model: Model, groups: Sequence[Sequence[MentionContext]]) -> List[torch.Tensor]:
    """Encode the contexts of several names once (for matching each against many others: `match_scores`).

    RETURNS (List[torch.Tensor]): per group, float (n_i, d) with n_i = min(len(group), max_contexts).
    """
    vocab, shape, module = get_word_vocab(model), model.attrs["shape"], get_torch_module(model)
    out: List[torch.Tensor] = []
    was_training = module.training
    module.eval()
    step = max(shape["batch_size"] // 2, 1)
    with torch.inference_mode():
        for start in range(0, len(groups), step):
            chunk = groups[start : start + step]
            tensors, mask, counts = context_tensors(vocab, chunk, shape["window"], shape["max_contexts"])
            vectors = module.encode(*tensors)
            offset = 0
            for count in counts:
                out.append(vectors[offset : offset + count].clone())
                offset += count
    module.train(was_training)
    return out


def match_scores(model: Model, first: Sequence[torch.Tensor], second: Sequence[torch.Tensor]) -> numpy.ndarray:
    """Bilateral matching of encoded context groups, pair by pair (`first[i]` with `second[i]`).

    RETURNS (numpy.ndarray): float32 scores; NaN where a side has no context.
    """
    out = numpy.full(len(first), numpy.nan, dtype=numpy.float32)
    todo = [i for i in range(len(first)) if len(first[i]) and len(second[i])]
    module = get_torch_module(model)
    batch_size = model.attrs["shape"]["batch_size"]
    was_training = module.training
    module.eval()
    with torch.inference_mode():
        for start in range(0, len(todo), batch_size):
            rows = todo[start : start + batch_size]
            h, h_mask = stack([first[i] for i in rows])
            g, g_mask = stack([second[i] for i in rows])
            out[rows] = module(h, h_mask, g, g_mask).float().numpy()
    module.train(was_training)
    return out


def stack(groups: Sequence[torch.Tensor]) -> Tuple[torch.Tensor, torch.Tensor]:
    """RETURNS (Tuple[torch.Tensor, torch.Tensor]): (n, width, d) groups padded with zeros, and their mask."""
    width = max(len(group) for group in groups)
    out = groups[0].new_zeros((len(groups), width, groups[0].shape[-1]))
    mask = torch.zeros((len(groups), width), dtype=torch.bool)
    for i, group in enumerate(groups):
        out[i, : len(group)] = group
        mask[i, : len(group)] = True
    return out, mask


def _forward(model: Model, pairs: List[ContextPair], is_train: bool) -> Tuple[Floats1d, Callable]:
    if is_train:
        raise ValueError("train the synonym model through its torch module (training/synonyms/train_synonymnet.py)")
    return model.ops.asarray1f(cast(Floats1d, pair_scores(model, pairs))), _no_backprop


def _no_backprop(d_scores: Floats1d) -> List[ContextPair]:
    raise ValueError("the synonym layer predicts only: there is nothing to backpropagate")


def save_synonymnet(model: Model, directory: Union[str, Path], extra: Optional[Dict[str, Any]] = None) -> None:
    """Write the weights (safetensors) and `synonymnet.json` (shape, vocabulary, `extra`) into a directory."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    state = {key: value.detach().contiguous().cpu() for key, value in get_torch_module(model).state_dict().items()}
    save_file(state, str(directory / WEIGHTS_FILE), metadata={"format_version": str(ARTIFACT_FORMAT_VERSION)})
    meta = {
        "format_version": ARTIFACT_FORMAT_VERSION,
        "spacy_nseen_version": __version__,
        "architecture": ARCHITECTURE,
        "config": model.attrs["shape"],
        "vocab": get_word_vocab(model).to_json(),
        "extra": extra or {},
    }
    (directory / CONFIG_FILE).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf8")


def load_synonymnet(directory: Union[str, Path]) -> Tuple[Model, Dict[str, Any]]:
    """Build the layer from a saved directory and load its weights and vocabulary.

    RETURNS (Tuple[Model, Dict[str, Any]]): the layer and the saved `extra` (e.g. the score combination).
    Raises ArtifactError naming the file when one is missing, corrupt or of another shape.
    """
    directory = Path(directory)
    config_path, weights_path = directory / CONFIG_FILE, directory / WEIGHTS_FILE
    meta, shape = read_artifact_meta(config_path, "synonym model config", RETRAIN)
    build = registry.architectures.get(ARCHITECTURE)
    try:
        model = build(**shape)
    except TypeError as err:
        raise ArtifactError(config_path, f"unknown settings ({err})", RETRAIN) from None
    set_word_vocab(model, WordVocab.from_json(meta.get("vocab", {}), config_path))
    if not weights_path.is_file():
        raise ArtifactError(weights_path, "synonym model weights not found", RETRAIN)
    try:
        state = load_file(str(weights_path))
        get_torch_module(model).load_state_dict(state)
    except (SafetensorError, RuntimeError, OSError) as err:
        raise ArtifactError(weights_path, f"cannot be loaded ({err})", RETRAIN) from None
    return model, dict(meta.get("extra") or {})
