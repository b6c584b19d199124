"""`nseen_repeated_mentions`: untagged repeats of a doc's entities get their label; nothing else changes."""
import pytest
import spacy
from spacy.tokens import Doc, Span

import spacy_nseen  # noqa: F401  (registers the factory)


def doc_with(nlp, words, ents):
    doc = Doc(nlp.vocab, words=words)
    doc.ents = [Span(doc, s, e, label=label) for s, e, label in ents]
    return doc


@pytest.fixture
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_repeated_mentions")
    return nlp


def test_an_untagged_repeat_gets_the_label_of_the_tagged_occurrence(nlp):
    words = ["LC3", "puncta", ";", "GFP", "-", "LC3", "and", "LC3", "-", "II", "with", "Beclin", "1", ";", "Beclin", "1"]
    doc = nlp.get_pipe("nseen_repeated_mentions")(doc_with(nlp, words, [(0, 1, "PROTEIN"), (11, 13, "GENE")]))
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("LC3", "PROTEIN"), ("LC3", "PROTEIN"), ("LC3", "PROTEIN"), ("Beclin 1", "GENE"), ("Beclin 1", "GENE")]
    assert [e.start for e in doc.ents] == [0, 5, 7, 11, 14]


def test_existing_entities_are_kept_and_never_overlapped(nlp):
    words = ["p62", "and", "p62", "bodies", "and", "p62"]
    doc = doc_with(nlp, words, [(0, 1, "PROTEIN"), (2, 4, "SUBCELLULAR")])
    doc = nlp.get_pipe("nseen_repeated_mentions")(doc)
    assert [(e.start, e.end, e.label_) for e in doc.ents] == [(0, 1, "PROTEIN"), (2, 4, "SUBCELLULAR"), (5, 6, "PROTEIN")]


def test_only_the_configured_labels_and_long_enough_names_are_repeated():
    nlp = spacy.blank("en")
    pipe = nlp.add_pipe("nseen_repeated_mentions", config={"labels": ["GENE"], "min_chars": 3})
    words = ["CQ", "and", "CQ", ";", "Atg5", "and", "Atg5", ";", "A", "and", "A", ";", "Rb", "Rb"]
    doc = pipe(doc_with(nlp, words, [(0, 1, "CHEMICAL"), (4, 5, "GENE"), (8, 9, "GENE"), (12, 13, "GENE")]))
    assert [(e.text, e.start) for e in doc.ents] == [("CQ", 0), ("Atg5", 4), ("Atg5", 6), ("A", 8), ("Rb", 12)]


def test_a_name_with_two_labels_takes_the_more_frequent_and_the_longest_name_wins(nlp):
    words = ["Tau", "Tau", "Tau", "Tau", "protein", "and", "Tau", "protein"]
    doc = doc_with(nlp, words, [(0, 1, "GENE"), (1, 2, "PROTEIN"), (2, 3, "PROTEIN"), (3, 5, "PROTEIN")])
    doc = nlp.get_pipe("nseen_repeated_mentions")(doc)
    assert [(e.text, e.label_) for e in doc.ents][-1] == ("Tau protein", "PROTEIN")
    doc = doc_with(nlp, ["Tau", "x", "Tau", "Tau", "Tau"], [(0, 1, "GENE"), (2, 3, "PROTEIN"), (3, 4, "PROTEIN")])
    assert nlp.get_pipe("nseen_repeated_mentions")(doc).ents[-1].label_ == "PROTEIN"


def test_it_declares_that_it_sets_entities_so_gold_span_evaluations_leave_it_out_with_the_ner(nlp):
    from training.evaluation.pipeline_outputs import sets_entities

    assert "doc.ents" in nlp.get_pipe_meta("nseen_repeated_mentions").assigns
    assert sets_entities(nlp, "nseen_repeated_mentions")


def test_a_doc_without_entities_or_tokens_is_returned_unchanged(nlp):
    assert nlp("").ents == () and nlp("no entities here").ents == ()


@pytest.mark.parametrize("config,message", [({"labels": []}, "labels"), ({"min_chars": 0}, "min_chars")])
def test_bad_settings_fail_when_the_pipe_is_created(config, message):
    with pytest.raises(ValueError, match=message):
        spacy.blank("en").add_pipe("nseen_repeated_mentions", config=config)


def test_the_component_is_saved_and_loaded_with_its_settings(tmp_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_repeated_mentions", config={"labels": ["GENE"], "min_chars": 4})
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    pipe = loaded.get_pipe("nseen_repeated_mentions")
    assert pipe.labels == frozenset({"GENE"}) and pipe.min_chars == 4


def test_the_ner_and_pipeline_configs_repeat_protein_and_gene_names_before_their_labels_and_the_linker():
    from pathlib import Path

    from thinc.api import Config

    root = Path(__file__).resolve().parents[2]
    ner = Config().from_disk(root / "configs" / "ner.cfg", interpolate=False)
    # the repeats get their PROTEIN/GENE label from the component after them (`nseen_protein_gene`), last
    assert ner["nlp"]["pipeline"][-2:] == ["repeated_mentions", "protein_gene"]
    assert ner["components"]["repeated_mentions"] == {"factory": "nseen_repeated_mentions", "labels": ["PROTEIN", "GENE"],
                                                       "min_chars": 2}
    assert ner["components"]["protein_gene"]["factory"] == "nseen_protein_gene"
    pipeline = Config().from_disk(root / "configs" / "pipeline.cfg", interpolate=False)
    names = pipeline["nlp"]["pipeline"]
    assert names.index("repeated_mentions") == names.index("protein_gene") - 1 == names.index("nseen_linker") - 2
    assert pipeline["components"]["repeated_mentions"] == {"source": "${paths.ner_model}"}
    assert pipeline["components"]["protein_gene"] == {"source": "${paths.ner_model}"}
