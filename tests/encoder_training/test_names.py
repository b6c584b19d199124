import pytest

from spacy_nseen.encoder_training.names import train_encoder_on_names, variant_pairs
from spacy_nseen.reference.reference_set import ReferenceSet


def test_variant_pairs_label_case_variants_as_the_same_name():
    pairs = {(a, b): y for a, b, y in variant_pairs(["Ras", "Ras", "FOX P2"])}
    assert pairs[("Ras", "RAS")] == 1.0 and pairs[("Ras", "ras")] == 1.0  # case-folded similarity
    assert 0.0 < pairs[("FOX P2", "FOXP2")] < 1.0
    assert len([1 for a, _ in pairs if a == "Ras"]) == 2  # a repeated name gives its variants once


def test_training_takes_exactly_the_steps_asked_for_in_rounds():
    reference = ReferenceSet.from_rows([("C1", "HeLa", ""), ("C1", "HELA", ""), ("C2", "U2OS", ""), ("C2", "U-2 OS", "")])
    config = dict(vocab_size=64, char_width=8, hidden_width=8, depth=1, output_width=8, max_length=16)
    result = train_encoder_on_names(reference, config, max_steps=7, rounds=2)
    assert [r["steps"] for r in result.rounds] == [4, 3]
    assert result.rounds[1]["hard_negatives_added"] == 0  # no mining after the last round
    with pytest.raises(ValueError, match="max_steps"):
        train_encoder_on_names(reference, config, max_steps=0)
