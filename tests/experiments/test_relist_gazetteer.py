"""Relisting a saved pipeline's gazetteer keeps everything else and reads the new names."""
from pathlib import Path

import spacy
from typer.testing import CliRunner

import spacy_nseen  # noqa: F401
from experiments.relist_gazetteer import app


def saved_pipeline(tmp_path: Path) -> Path:
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_gazetteer", name="chemical_gazetteer", config={"label": "CHEMICAL", "max_tokens": 4})
    (tmp_path / "old.txt").write_text("folate\n", encoding="utf8")
    nlp.initialize()
    nlp.get_pipe("chemical_gazetteer").initialize(lambda: [], nlp=nlp, names_path=str(tmp_path / "old.txt"))
    nlp.to_disk(tmp_path / "model")
    return tmp_path / "model"


def test_the_copy_lists_the_new_names(tmp_path: Path) -> None:
    model = saved_pipeline(tmp_path)
    (tmp_path / "new.txt").write_text("zymosan\nsialic acid\n", encoding="utf8")
    result = CliRunner().invoke(app, [str(model), str(tmp_path / "new.txt"), str(tmp_path / "copy")])
    assert result.exit_code == 0, result.output
    copy = spacy.load(tmp_path / "copy")
    ents = [(e.text, e.label_) for e in copy("zymosan, folate and sialic acid").ents]
    assert ents == [("zymosan", "CHEMICAL"), ("sialic acid", "CHEMICAL")]
    assert [e.text for e in spacy.load(model)("zymosan and folate").ents] == ["folate"]  # the original is kept


def test_a_missing_component_or_file_is_a_clear_error(tmp_path: Path) -> None:
    model = saved_pipeline(tmp_path)
    wrong = CliRunner().invoke(app, [str(model), str(tmp_path / "old.txt"), str(tmp_path / "c"), "--component", "x"])
    assert wrong.exit_code == 1 and "'x'" in wrong.output
    missing = CliRunner().invoke(app, [str(model), str(tmp_path / "none.txt"), str(tmp_path / "c")])
    assert missing.exit_code == 1 and "none.txt" in missing.output
