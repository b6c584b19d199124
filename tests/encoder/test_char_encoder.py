import pytest
import torch

from spacy_nseen.encoder.char_encoder import POOLINGS, CharBiLSTMEncoder, EncoderConfig
from spacy_nseen.encoder.vocab import CharVocab

VOCAB = CharVocab.from_texts(["FOXP2"], capacity=160)
NAMES = ["FOXP2", "PLC-gamma-2", "p", "Inhibitor of nuclear factor kappa-B kinase subunit epsilon", "RAS"]


def encode(module: CharBiLSTMEncoder, names):
    ids, lengths = VOCAB.batch(names, max_length=64)
    with torch.no_grad():
        return module(torch.from_numpy(ids), torch.from_numpy(lengths))


def make(pooling: str, depth: int = 2) -> CharBiLSTMEncoder:
    torch.manual_seed(0)
    module = CharBiLSTMEncoder(EncoderConfig(160, char_width=8, hidden_width=12, depth=depth, output_width=10, pooling=pooling))
    return module.eval()


@pytest.mark.parametrize("pooling", POOLINGS)
def test_output_has_unit_norm(pooling):
    vectors = encode(make(pooling), NAMES)
    assert vectors.shape == (len(NAMES), 10)
    torch.testing.assert_close(vectors.norm(dim=-1), torch.ones(len(NAMES)))


@pytest.mark.parametrize("pooling", POOLINGS)
@pytest.mark.parametrize("depth", [1, 2])
def test_padding_invariance(pooling, depth):
    """A name alone or in a batch with longer names (so padded) gets the same vector."""
    module = make(pooling, depth)
    batch = encode(module, NAMES)
    for row, name in enumerate(NAMES):
        torch.testing.assert_close(encode(module, [name])[0], batch[row], atol=1e-5, rtol=1e-5)
    # the padding id itself changes nothing either: explicit extra padding columns
    ids, lengths = VOCAB.batch(["RAS"], max_length=64)
    padded = torch.zeros((1, 20), dtype=torch.int64)
    padded[0, :3] = torch.from_numpy(ids[0])
    with torch.no_grad():
        torch.testing.assert_close(module(padded, torch.from_numpy(lengths))[0], batch[4], atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("pooling", POOLINGS)
def test_poolings_differ_and_vectors_depend_on_the_name(pooling):
    vectors = encode(make(pooling), ["FOXP2", "FOXP3", "RAS"])
    assert not torch.allclose(vectors[0], vectors[1])
    assert not torch.allclose(vectors[0], vectors[2])


def test_poolings_give_different_vectors():
    results = [encode(make(p), ["FOXP2"])[0] for p in POOLINGS]
    assert not torch.allclose(results[0], results[1]) and not torch.allclose(results[1], results[2])


def test_gradients_reach_every_parameter():
    module = make("max").train()
    ids, lengths = VOCAB.batch(NAMES, max_length=64)
    module(torch.from_numpy(ids), torch.from_numpy(lengths)).sum().backward()
    for name, param in module.named_parameters():
        assert param.grad is not None and torch.isfinite(param.grad).all(), name
    # the padding row of the embedding never learns
    assert float(module.embed.weight.grad[0].abs().sum()) == 0.0


def test_config_and_validation():
    module = CharBiLSTMEncoder(EncoderConfig(50, 4, 6, 1, 8, 0.1, "mean"))
    assert module.config == {
        "n_chars": 50, "char_width": 4, "hidden_width": 6, "depth": 1, "output_width": 8, "dropout": 0.1, "pooling": "mean",
    }
    with pytest.raises(ValueError, match="pooling"):
        EncoderConfig(50, pooling="sum")
    with pytest.raises(ValueError, match="positive"):
        EncoderConfig(50, depth=0)


def test_imports_torch_only():
    import ast
    from pathlib import Path

    import spacy_nseen.encoder.char_encoder as mod

    tree = ast.parse(Path(mod.__file__).read_text(encoding="utf8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= {"torch", "typing", "dataclasses"}, imported  # torch and the standard library only
