import numpy
import pytest
import torch

from spacy_nseen.encoder.layer import build_char_bilstm_encoder, get_char_vocab, set_char_vocab
from spacy_nseen.encoder.vocab import CharVocab
from spacy_nseen.encoder_training.siamese import (
    SiameseTrainer,
    TrainingSettings,
    mine_hard_negatives,
    reference_pairs,
    train_on_reference_set,
)
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.text.normalization import folded_text
from training.pairs.string_similarity import levenshtein

# Unseen syntactic variants: none of these strings is a reference name or a generated training variant.
UNSEEN = [
    ("FOX-P2", "UniProt:O15409"),
    ("FOX P2", "UniProt:O15409"),
    ("Foxp2", "UniProt:O15409"),
    ("IKK epsilon", "UniProt:Q14164"),
    ("PLC gamma 2", "UniProt:P16885"),
]


def test_soft_labels_of_case_variants_use_casefolded_strings():
    assert levenshtein("RAS", "ras") == 0.0  # why the toy pairs casefold before comparing
    assert levenshtein("RAS".casefold(), "ras".casefold()) == 1.0


def test_toy_encoder_links_unseen_syntactic_variants_in_dense_mode(toy_linker, toy_training_strings):
    """The functional test: the encoder trained in seconds on the toy set (conftest) finds the entity of
    variants it never saw, by pure embedding search (mode="dense": no exact match, no TF-IDF)."""
    for mention, _ in UNSEEN:
        assert mention not in toy_training_strings
    results = toy_linker.link([m for m, _ in UNSEEN] + ["ras"], top_k=3, mode="dense")
    got = {mention: candidates[0] for (mention, _), candidates in zip(UNSEEN + [("ras", None)], results)}
    training_inputs = {folded_text(s) for s in toy_training_strings}
    for mention, kb_id in UNSEEN:
        assert got[mention].kb_id == kb_id, (mention, got[mention])
        # `Foxp2` is `FOXP2` to the case-folding encoder (the same input); the others are new inputs
        assert (got[mention].score == pytest.approx(1.0)) == (folded_text(mention) in training_inputs), mention
    assert got["Foxp2"].score == pytest.approx(1.0) and got["FOX-P2"].score < 1.0
    # `ras` is the lower-case variant of the name `RAS` (a training variant, label 1 on casefolded strings)
    assert got["ras"].kb_id == "UniProt:P01112", got["ras"]
    assert got["FOX-P2"].name == "FOXP2"


def test_training_did_the_work(toy_linker, toy_encoder, toy_reference, new_toy_encoder):
    """The same search with the same encoder before training misses some of these variants."""
    untrained = new_toy_encoder()
    set_char_vocab(untrained, get_char_vocab(toy_encoder))
    before = KnowledgeBaseLinker.build("uniprot", untrained, toy_reference, n_trees=10)
    mentions = [m for m, _ in UNSEEN] + ["ras"]
    gold = [kb_id for _, kb_id in UNSEEN] + ["UniProt:P01112"]

    def hits(linker):
        return sum(c[0].kb_id == g for c, g in zip(linker.link(mentions, top_k=1, mode="dense"), gold))

    assert hits(toy_linker) == len(mentions)
    assert hits(before) < len(mentions)


def test_reference_pairs_labels():
    name_entity = numpy.array([0, 0, 0, 1, 1, 2])
    left, right, label = reference_pairs(name_entity, negatives_per_positive=2.0, seed=1)
    positives = label == 1
    assert positives.sum() == 4  # 3 pairs of entity 0, 1 of entity 1
    assert (name_entity[left[positives]] == name_entity[right[positives]]).all()
    assert (~positives).sum() == 8
    assert (name_entity[left[~positives]] != name_entity[right[~positives]]).all()
    _, _, capped = reference_pairs(name_entity, max_positives_per_entity=1)
    assert capped.sum() == 2


def test_mine_hard_negatives_pairs_different_entities():
    torch.manual_seed(0)
    names = ["FOXP2", "FOXP1", "forkhead box P2", "RAS", "HRAS", "KRAS"]
    name_entity = numpy.array([0, 1, 0, 2, 2, 3])
    encoder = build_char_bilstm_encoder(vocab_size=160, char_width=8, hidden_width=8, depth=1, output_width=8)
    set_char_vocab(encoder, CharVocab.from_texts(names, 160))
    left, right = mine_hard_negatives(encoder, names, name_entity, n_neighbors=3, n_trees=2)
    assert len(left) > 0
    assert (name_entity[left] != name_entity[right]).all()
    assert (left < right).all() and len(set(zip(left, right))) == len(left)


def test_trainer_lowers_the_loss_and_accepts_extra_pairs():
    torch.manual_seed(0)
    names = ["FOXP2", "forkhead box P2", "RAS", "GTPase HRas", "TP53", "p53"]
    encoder = build_char_bilstm_encoder(vocab_size=160, char_width=8, hidden_width=16, depth=1, output_width=16)
    losses = train_on_reference_set(
        encoder, names, numpy.array([0, 0, 1, 1, 2, 2]), extra_pairs=[("RAS", "ras", 1.0), ("FOXP2", "FOX P2", 0.8)],
        epochs=40, settings=TrainingSettings(batch_pairs=8, seed=0),
    )
    assert get_char_vocab(encoder) is not None
    assert len(losses) == 40 and losses[-1] < losses[0] / 2
    trainer = SiameseTrainer(encoder, names, numpy.array([0, 0, 1, 1, 2, 2]), numpy.array([0]), numpy.array([1]),
                             numpy.array([1.0]), TrainingSettings(batch_pairs=1))
    trainer.add_pairs([2], [3], [1.0])
    assert len(trainer.label) == 2
    assert len(trainer.train_epochs(0.5)) == 1 and trainer.steps_done == 1
    with pytest.raises(ValueError, match="same length"):
        SiameseTrainer(encoder, names, numpy.zeros(6), numpy.array([0]), numpy.array([1, 2]), numpy.array([1.0]))
    untrained = build_char_bilstm_encoder(vocab_size=160, char_width=8, hidden_width=8, depth=1, output_width=8)
    with pytest.raises(ValueError, match="vocabulary"):
        SiameseTrainer(untrained, names, numpy.zeros(6), numpy.array([0]), numpy.array([1]), numpy.array([1.0]))


def test_the_infonce_in_batch_loss_trains_and_bad_settings_are_refused():
    torch.manual_seed(0)
    names = ["FOXP2", "forkhead box P2", "RAS", "GTPase HRas", "TP53", "p53"]
    encoder = build_char_bilstm_encoder(vocab_size=160, char_width=8, hidden_width=16, depth=1, output_width=16)
    losses = train_on_reference_set(
        encoder, names, numpy.array([0, 0, 1, 1, 2, 2]), epochs=40,
        settings=TrainingSettings(batch_pairs=8, seed=0, in_batch_loss="infonce", temperature=0.1),
    )
    assert losses[-1] < losses[0] / 2
    with pytest.raises(ValueError, match="in_batch_loss"):
        TrainingSettings(in_batch_loss="triplet")
    with pytest.raises(ValueError, match="temperature"):
        TrainingSettings(in_batch_loss="infonce", temperature=0)
