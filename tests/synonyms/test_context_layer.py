from pathlib import Path

import numpy
import pytest
from spacy.util import registry

from spacy_nseen.errors import ArtifactError, NotInitializedError
from spacy_nseen.synonyms.context_layer import (
    ARCHITECTURE,
    encode_contexts,
    load_synonymnet,
    match_scores,
    pair_scores,
    save_synonymnet,
    set_word_vocab,
)
from spacy_nseen.synonyms.contexts import MentionContext
from spacy_nseen.synonyms.word_vocab import WordVocab

VOCAB = WordVocab(["cells", "with", "puncta", "starved", "the", "kinase", "inhibitor", "."])


def context(text: str, mention: str, doc: str = "d1") -> MentionContext:
    start = text.index(mention)
    return MentionContext(text, start, start + len(mention), doc, doc)


A = [context("cells with LC3B puncta .", "LC3B"), context("the LC3B starved cells", "LC3B")]
B = [context("cells with MAP1LC3B puncta .", "MAP1LC3B")]
C = [context("the kinase inhibitor rapamycin .", "rapamycin")]


def model():
    build = registry.architectures.get(ARCHITECTURE)
    layer = build(n_words=VOCAB.size, word_width=8, hidden_width=6, window=5, max_contexts=4, batch_size=2)
    set_word_vocab(layer, VOCAB)
    return layer


def test_layer_scores_pairs_and_nan_without_contexts() -> None:
    layer = model()
    scores = pair_scores(layer, [(A, B), (A, C), (A, [])])
    assert scores.shape == (3,) and numpy.isnan(scores[2]) and numpy.all(numpy.abs(scores[:2]) <= 1.0 + 1e-6)
    assert layer.predict([(A, B)])[0] == pytest.approx(scores[0], abs=1e-6)


def test_encoding_once_and_matching_equals_pair_scores() -> None:
    layer = model()
    encoded = encode_contexts(layer, [A, B, C, []])
    assert [len(e) for e in encoded] == [2, 1, 1, 0]
    matched = match_scores(layer, [encoded[0], encoded[0], encoded[0]], [encoded[1], encoded[2], encoded[3]])
    direct = pair_scores(layer, [(A, B), (A, C), (A, [])])
    assert numpy.allclose(matched[:2], direct[:2], atol=1e-5) and numpy.isnan(matched[2])


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    layer = model()
    save_synonymnet(layer, tmp_path / "syn", {"combination": {"with_context": [0, 1, 1], "string_only": [0, 1]}})
    loaded, extra = load_synonymnet(tmp_path / "syn")
    assert extra["combination"]["string_only"] == [0, 1]
    assert numpy.allclose(pair_scores(loaded, [(A, B)]), pair_scores(layer, [(A, B)]), atol=1e-6)


def test_errors_name_what_to_fix(tmp_path: Path) -> None:
    build = registry.architectures.get(ARCHITECTURE)
    with pytest.raises(NotInitializedError):
        pair_scores(build(n_words=VOCAB.size), [(A, B)])
    with pytest.raises(ValueError, match="rows"):
        set_word_vocab(build(n_words=5), VOCAB)
    with pytest.raises(ArtifactError, match="config not found"):
        load_synonymnet(tmp_path)
    save_synonymnet(model(), tmp_path / "syn")
    (tmp_path / "syn" / "synonymnet.safetensors").write_bytes(b"broken")
    with pytest.raises(ArtifactError, match="cannot be loaded"):
        load_synonymnet(tmp_path / "syn")
