"""`nseen_numbered_names`: a PROTEIN/GENE entity that stops before `‐1` takes the number ending its word."""
from typing import List, Tuple

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span

from spacy_nseen.ner.numbered_names import UNICODE_DASHES  # importing spacy_nseen registers the factory
from training.ner.bio_tokenizer import UNICODE_DASHES as TOKENIZER_DASHES

Token = Tuple[str, bool]  # (text, followed by a space)


def doc_with(nlp: Language, tokens: List[Token], ents: List[Tuple[int, int, str]]) -> Doc:
    doc = Doc(nlp.vocab, words=[t for t, _ in tokens], spaces=[s for _, s in tokens])
    doc.ents = [Span(doc, s, e, label=label, kb_id="x") for s, e, label in ents]
    return doc


@pytest.fixture
def nlp() -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_numbered_names")
    return nlp


def run(nlp: Language, tokens: List[Token], ents: List[Tuple[int, int, str]]) -> List[Tuple[str, str]]:
    doc = nlp.get_pipe("nseen_numbered_names")(doc_with(nlp, tokens, ents))
    return [(e.text, e.label_) for e in doc.ents]


def test_the_number_after_a_unicode_dash_goes_back_on_the_name(nlp: Language) -> None:
    # "NAF‐1 and IL‐1β, LAMP‐2A." as the caption tokenizer splits it
    tokens = [("NAF", False), ("‐", False), ("1", True), ("and", True), ("IL", False), ("‐", False), ("1β", False),
              (",", True), ("LAMP", False), ("‐", False), ("2A", False), (".", False)]
    ents = [(0, 1, "PROTEIN"), (4, 5, "GENE"), (8, 9, "PROTEIN")]
    assert run(nlp, tokens, ents) == [("NAF‐1", "PROTEIN"), ("IL‐1β", "GENE"), ("LAMP‐2A", "PROTEIN")]
    doc = nlp.get_pipe("nseen_numbered_names")(doc_with(nlp, tokens, ents))
    assert doc.ents[0].kb_id_ == "x"  # the entity's other attributes are kept


def test_what_is_not_a_name_number_is_left_alone(nlp: Language) -> None:
    cases = [
        # a range after a digit: Mcm2‐7
        ([("Mcm2", False), ("‐", False), ("7", True)], [(0, 1, "PROTEIN")], [("Mcm2", "PROTEIN")]),
        # letters after the number: capsid‐3XFLAG
        ([("capsid", False), ("‐", False), ("3XFLAG", True)], [(0, 1, "PROTEIN")], [("capsid", "PROTEIN")]),
        # an ASCII hyphen is the tokenizer's business (NAF-1 stays one token)
        ([("NAF", False), ("-", False), ("1", True)], [(0, 1, "PROTEIN")], [("NAF", "PROTEIN")]),
        # a space before the dash
        ([("NAF", True), ("‐", False), ("1", True)], [(0, 1, "PROTEIN")], [("NAF", "PROTEIN")]),
        # another label
        ([("Tet", False), ("‐", False), ("1", True)], [(0, 1, "CHEMICAL")], [("Tet", "CHEMICAL")]),
        # the entity already holds the number
        ([("SHP", False), ("‐", False), ("1", True)], [(0, 3, "PROTEIN")], [("SHP‐1", "PROTEIN")]),
    ]
    for tokens, ents, expected in cases:
        assert run(nlp, tokens, ents) == expected, tokens


def test_another_entity_on_the_number_is_never_overlapped(nlp: Language) -> None:
    tokens = [("GFP", False), ("‐", False), ("1", True), ("and", True), ("p62", False)]
    assert run(nlp, tokens, [(0, 1, "PROTEIN"), (2, 3, "CHEMICAL"), (4, 5, "PROTEIN")]) == [
        ("GFP", "PROTEIN"), ("1", "CHEMICAL"), ("p62", "PROTEIN")]


def test_a_number_that_does_not_end_on_a_token_boundary_is_left_alone(nlp: Language) -> None:
    # a tokenizer that kept "‐1," whole: the number would end inside a token
    tokens = [("NAF", False), ("‐1,", True), ("and", True)]
    assert run(nlp, tokens, [(0, 1, "PROTEIN")]) == [("NAF", "PROTEIN")]


def test_labels_are_configurable_and_must_not_be_empty() -> None:
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_numbered_names", config={"labels": ["CHEMICAL"]})
    tokens = [("Tet", False), ("‐", False), ("1", True)]
    assert run(nlp, tokens, [(0, 1, "CHEMICAL")]) == [("Tet‐1", "CHEMICAL")]
    with pytest.raises(ValueError, match="labels"):
        spacy.blank("en").add_pipe("nseen_numbered_names", config={"labels": []})


def test_the_component_survives_a_save_and_load(nlp: Language, tmp_path) -> None:
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    tokens = [("NAF", False), ("‐", False), ("1", True)]
    assert run(loaded, tokens, [(0, 1, "PROTEIN")]) == [("NAF‐1", "PROTEIN")]


def test_the_dashes_are_those_the_caption_tokenizer_splits() -> None:
    assert set(UNICODE_DASHES) == set(TOKENIZER_DASHES)
