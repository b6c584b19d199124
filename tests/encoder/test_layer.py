import numpy
import pytest
import torch
from spacy.util import registry

from spacy_nseen.encoder.layer import (
    ARCHITECTURE,
    build_char_bilstm_encoder,
    encode_names,
    encoder_config,
    get_torch_module,
    set_char_vocab,
    set_precision,
)
from spacy_nseen.encoder.vocab import CharVocab
from spacy_nseen.errors import NotInitializedError

NAMES = ["FOXP2", "PLC-gamma-2", "", "p", "Inhibitor of nuclear factor kappa-B kinase subunit epsilon", "RAS", "🧬"]


def make(**kwargs):
    torch.manual_seed(0)
    settings = dict(vocab_size=160, char_width=8, hidden_width=12, depth=1, output_width=10)
    settings.update(kwargs)
    model = build_char_bilstm_encoder(**settings)
    set_char_vocab(model, CharVocab.from_texts(NAMES, 160))
    return model


def test_registered_under_its_versioned_name():
    assert registry.architectures.get(ARCHITECTURE) is build_char_bilstm_encoder


def test_encode_names_keeps_input_order_across_batches():
    model = make(batch_size=2)
    together = encode_names(model, NAMES)
    assert together.shape == (len(NAMES), 10) and together.dtype == numpy.float32
    numpy.testing.assert_allclose(numpy.linalg.norm(together, axis=1), 1.0, rtol=1e-5)
    for row, name in enumerate(NAMES):
        numpy.testing.assert_allclose(encode_names(model, [name])[0], together[row], atol=1e-5)
    assert encode_names(model, []).shape == (0, 10)


def test_predict_equals_encode_names_and_train_mode_backpropagates():
    model = make()
    numpy.testing.assert_allclose(model.predict(NAMES), encode_names(model, NAMES), atol=1e-6)
    vectors, backprop = model(NAMES, is_train=True)
    assert vectors.shape == (len(NAMES), 10)
    backprop(numpy.ones_like(vectors))
    grads = [p.grad for p in get_torch_module(model).parameters()]
    assert all(g is not None for g in grads)
    _, no_backprop = model(NAMES, is_train=False)
    with pytest.raises(ValueError, match="is_train=False"):
        no_backprop(numpy.ones((len(NAMES), 10), dtype="f"))


def test_max_length_truncates():
    model = make(max_length=5)
    a, b = encode_names(model, ["ABCDEFGHIJ", "ABCDEXXXXX"])
    numpy.testing.assert_allclose(a, b, atol=1e-6)


def test_without_vocabulary_it_refuses_clearly():
    model = build_char_bilstm_encoder(vocab_size=160, char_width=8, hidden_width=12, depth=1, output_width=10)
    with pytest.raises(NotInitializedError, match="character vocabulary"):
        encode_names(model, ["a"])
    with pytest.raises(NotInitializedError):
        model(["a"], is_train=True)
    with pytest.raises(ValueError, match="capacity"):
        set_char_vocab(model, CharVocab(list("ab"), 100))


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::UserWarning")
@pytest.mark.parametrize("precision", ["bf16", "int8"])
def test_reduced_precisions_stay_close_to_fp32(precision):
    model = make()
    reference = encode_names(model, NAMES)
    set_precision(model, precision)
    reduced = encode_names(model, NAMES)
    assert reduced.shape == reference.shape
    cosines = (reduced * reference).sum(axis=1) / numpy.linalg.norm(reduced, axis=1)
    assert cosines.min() > 0.95
    set_precision(model, "fp32")
    numpy.testing.assert_allclose(encode_names(model, NAMES), reference, atol=1e-6)


def test_validation_and_config():
    with pytest.raises(ValueError, match="precision"):
        build_char_bilstm_encoder(precision="fp16")
    with pytest.raises(ValueError, match="positive"):
        build_char_bilstm_encoder(max_length=0)
    model = make(pooling="mean", max_length=32)
    assert encoder_config(model)["pooling"] == "mean" and encoder_config(model)["max_length"] == 32
    with pytest.raises(ValueError, match="precision"):
        set_precision(model, "fp8")


def test_bf16_falls_back_to_fp32_where_the_cpu_has_no_bf16_lstm(toy_encoder, monkeypatch):
    """Encoding in "bf16" never fails: on a CPU without bf16 LSTMs it gives the fp32 vectors."""
    from spacy_nseen.encoder import layer as encoder_layer

    names = ["TP53", "rapamycin"]
    fp32 = encoder_layer.encode_names(toy_encoder, names)
    monkeypatch.setattr(encoder_layer, "bf16_lstm_supported", lambda: False)
    set_precision(toy_encoder, "bf16")
    try:
        assert numpy.array_equal(encoder_layer.encode_names(toy_encoder, names), fp32)
    finally:
        set_precision(toy_encoder, "fp32")
