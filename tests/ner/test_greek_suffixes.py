"""`nseen_greek_suffixes`: a PROTEIN/GENE entity that stops before a spelled Greek letter takes the letter."""
from typing import List, Tuple

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Span

from spacy_nseen.ner.greek_suffixes import is_greek_letter  # importing spacy_nseen registers the factory


@pytest.fixture
def nlp() -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_greek_suffixes")
    return nlp


def run(nlp: Language, text: str, ents: List[Tuple[int, int, str]]) -> List[Tuple[str, str]]:
    doc = nlp.make_doc(text)
    doc.ents = [Span(doc, s, e, label=label, kb_id="x") for s, e, label in ents]
    return [(e.text, e.label_) for e in nlp.get_pipe("nseen_greek_suffixes")(doc).ents]


def test_the_greek_letter_after_a_name_goes_on_the_name(nlp: Language) -> None:
    # HIF-1 alpha and Tif1 Gamma with PKC α
    assert run(nlp, "HIF-1 alpha and Tif1 Gamma with PKC α", [(0, 1, "PROTEIN"), (3, 4, "GENE"), (6, 7, "PROTEIN")]) == [
        ("HIF-1 alpha", "PROTEIN"), ("Tif1 Gamma", "GENE"), ("PKC α", "PROTEIN")]


def test_an_entity_of_the_letter_alone_is_taken_in_and_a_longer_one_is_left(nlp: Language) -> None:
    assert run(nlp, "PKC zeta was inhibited", [(0, 1, "PROTEIN"), (1, 2, "PROTEIN")]) == [("PKC zeta", "PROTEIN")]
    # `beta cells`: the letter begins another entity, which is kept
    assert run(nlp, "insulin beta cells", [(0, 1, "PROTEIN"), (1, 3, "CELL")]) == [
        ("insulin", "PROTEIN"), ("beta cells", "CELL")]


def test_other_labels_names_ending_in_a_letter_and_plain_words_are_left(nlp: Language) -> None:
    assert run(nlp, "ATP alpha", [(0, 1, "CHEMICAL")]) == [("ATP", "CHEMICAL")]
    assert run(nlp, "PPAR gamma alpha", [(0, 2, "PROTEIN")]) == [("PPAR gamma", "PROTEIN")]
    assert run(nlp, "p53 and MDM2", [(0, 1, "PROTEIN")]) == [("p53", "PROTEIN")]
    assert run(nlp, "LC3", [(0, 1, "PROTEIN")]) == [("LC3", "PROTEIN")]


def test_the_entity_keeps_its_attributes_and_a_doc_without_change_is_untouched(nlp: Language) -> None:
    doc = nlp.make_doc("HIF-1 alpha")
    doc.ents = [Span(doc, 0, 1, label="PROTEIN", kb_id="x")]
    assert nlp.get_pipe("nseen_greek_suffixes")(doc).ents[0].kb_id_ == "x"
    assert nlp.get_pipe("nseen_greek_suffixes").extended(nlp.make_doc("nothing here")) is None


def test_greek_letters_spelled_in_any_case_or_as_symbols() -> None:
    assert all(is_greek_letter(t) for t in ("alpha", "Beta", "GAMMA", "κ", "omega"))
    assert not any(is_greek_letter(t) for t in ("alphabet", "a", "B", "al"))


def test_labels_must_not_be_empty() -> None:
    with pytest.raises(ValueError, match="labels"):
        spacy.blank("en").add_pipe("nseen_greek_suffixes", config={"labels": []})


def test_saved_and_loaded_with_the_pipeline(nlp: Language, tmp_path) -> None:
    nlp.to_disk(tmp_path / "p")
    assert spacy.load(tmp_path / "p").pipe_names == ["nseen_greek_suffixes"]
