"""The mention-swap augmenter of the NER experiment: same-label replacements, repeats kept, other text untouched."""
import spacy
from spacy.tokens import Doc
from spacy.training import Example

from experiments.mention_swap import MIN_POOL, create_mention_swap


def example(nlp: spacy.Language, words: list, tags: list) -> Example:
    doc = Doc(nlp.vocab, words=words, ents=tags)
    return Example(nlp.make_doc(doc.text), doc)


def test_mentions_are_swapped_for_earlier_ones_of_their_label() -> None:
    nlp = spacy.blank("en")
    augment = create_mention_swap(level=1.0, labels=["PROTEIN"], seed=0)
    for i in range(MIN_POOL + 4):  # enough distinct names make the pool usable
        list(augment(nlp, example(nlp, [f"P{i}", "binds"], ["B-PROTEIN", "O"])))
    words = ["Akt", "and", "Akt", "with", "ATP", "in", "HeLa"]
    tags = ["B-PROTEIN", "O", "B-PROTEIN", "O", "B-CHEMICAL", "O", "B-CELL"]
    (swapped,) = list(augment(nlp, example(nlp, words, tags)))
    ents = [(e.text, e.label_) for e in swapped.reference.ents]
    assert [label for _, label in ents] == ["PROTEIN", "PROTEIN", "CHEMICAL", "CELL"]
    assert ents[0][0] == ents[1][0] and ents[0][0].startswith("P")  # a repeat gets the same replacement
    assert ents[2:] == [("ATP", "CHEMICAL"), ("HeLa", "CELL")]
    assert swapped.reference.text.rstrip().endswith(" with ATP in HeLa")
    assert swapped.predicted.text == swapped.reference.text


def test_level_zero_yields_the_example_itself() -> None:
    nlp = spacy.blank("en")
    augment = create_mention_swap(level=0.0, labels=["PROTEIN"])
    original = example(nlp, ["Akt", "binds"], ["B-PROTEIN", "O"])
    assert list(augment(nlp, original)) == [original]
