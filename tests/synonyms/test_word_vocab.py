from spacy_nseen.synonyms.word_vocab import MENTION_ID, UNK_ID, WordVocab, pad, words


def test_words_are_lower_cased_with_digits_as_zero() -> None:
    assert words("GFP-LC3B at 24 h.") == ["gfp", "-", "lc0b", "at", "00", "h", "."]


def test_context_ids_read_up_to_the_mention_from_both_sides() -> None:
    vocab = WordVocab(["cells", "with", "puncta", "."])
    text = "cells with LC3B puncta ."
    forward, backward = vocab.context_ids(text, 11, 15, window=1)
    index = vocab.index
    assert forward == [index["with"], MENTION_ID]
    assert backward == [index["puncta"], MENTION_ID]
    forward, backward = vocab.context_ids("odd LC3B", 4, 8, window=5)
    assert forward == [UNK_ID, MENTION_ID] and backward == [MENTION_ID]


def test_vocabulary_from_texts_keeps_frequent_words_and_round_trips() -> None:
    vocab = WordVocab.from_texts(["a b b c", "b c"], max_words=2, min_count=2)
    assert vocab.words == ["b", "c"] and vocab.size == 5
    assert WordVocab.from_json(vocab.to_json()).index == vocab.index


def test_pad() -> None:
    ids, lengths = pad([[3, 4], [5]])
    assert ids.tolist() == [[3, 4], [5, 0]] and lengths.tolist() == [2, 1]
