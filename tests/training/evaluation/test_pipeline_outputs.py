"""The linking-only view runs the pipeline on gold spans without anything that finds entities."""
import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span

from training.evaluation.pipeline_outputs import run_without_ner, sets_entities


@Language.component("test_marks_docs")
def marks_docs(doc: Doc) -> Doc:
    doc.user_data["marked"] = True
    return doc


def test_entity_finders_are_left_out_and_the_rest_runs() -> None:
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns([{"label": "ORGANISM", "pattern": "mice"}])
    nlp.add_pipe("nseen_gazetteer", name="chemical_gazetteer").add_names(["folate"])
    nlp.add_pipe("test_marks_docs")
    assert [sets_entities(nlp, name) for name in nlp.pipe_names] == [True, True, False]
    doc = nlp.make_doc("mice fed folate")
    doc.ents = [Span(doc, 0, 1, label="PROTEIN")]  # the gold spans
    (out,) = run_without_ner(nlp, [doc], batch_size=8)
    assert [(e.text, e.label_) for e in out.ents] == [("mice", "PROTEIN")] and out.user_data["marked"]
