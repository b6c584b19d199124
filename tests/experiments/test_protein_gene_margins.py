"""`experiments.protein_gene_margins`: one copy of a trained NER per `nseen_protein_gene` margin."""
import pytest
import spacy
import typer

from experiments.protein_gene_margins import margin_copies


@pytest.fixture
def model(tmp_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_protein_gene", name="protein_gene", config={"n_features": 64})
    nlp.initialize()
    nlp.to_disk(tmp_path / "model")
    return tmp_path / "model"


def test_each_copy_has_its_margin_and_without_drops_the_component(model, tmp_path):
    written = margin_copies(model, tmp_path / "out", [0.0, 0.25], without=True)
    assert [p.name for p in written] == ["margin_0", "margin_0.25", "without"]
    assert [spacy.load(p).get_pipe("protein_gene").margin for p in written[:2]] == [0.0, 0.25]
    assert spacy.load(written[2]).pipe_names == []


def test_a_model_without_the_component_or_a_bad_margin_is_refused(model, tmp_path):
    spacy.blank("en").to_disk(tmp_path / "plain")
    with pytest.raises(typer.BadParameter, match="no 'protein_gene'"):
        margin_copies(tmp_path / "plain", tmp_path / "out", [0.2])
    with pytest.raises(typer.BadParameter, match="in \\[0, 0.5\\)"):
        margin_copies(model, tmp_path / "out", [0.5])
