"""The abbreviation lexicon step (`training.data.build_abbreviations`): captions → lexicon, by half, holdout left out."""
import json

from typer.testing import CliRunner

from spacy_nseen.text.abbreviation_lexicon import AbbreviationLexicon
from training.data.build_abbreviations import app

CAPTIONS = [("P001", "Cells with cycloheximide (CHX)."), ("P003", "A cycloheximide (CHX) chase."),
            ("P005", "Cycloheximide (CHX), 4 h."), ("P002", "Ubiquitin (Ub) blot."), ("P004", "ubiquitin (Ub) chains."),
            ("P006", "Cells in chloroquine (CQ).")]


def write_captions(path):
    lines = ["split\tpmc_id\tcaption_id\ttext"] + [f"train\t{p}\t{p} Figure_1\t{t}" for p, t in CAPTIONS]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def test_the_halves_and_the_holdout_decide_which_articles_are_read(tmp_path):
    captions = write_captions(tmp_path / "captions.tsv")
    runner = CliRunner()
    result = runner.invoke(app, [str(captions), str(tmp_path / "all.json"), "--min-documents", "2"])
    assert result.exit_code == 0, result.output
    assert AbbreviationLexicon.from_disk(tmp_path / "all.json").long_forms() == {"CHX": "cycloheximide", "Ub": "ubiquitin"}
    assert runner.invoke(app, [str(captions), str(tmp_path / "one.json")]).exit_code == 0  # one article is enough
    assert AbbreviationLexicon.from_disk(tmp_path / "one.json").get("CQ") == "chloroquine"
    assert runner.invoke(app, [str(captions), str(tmp_path / "odd.json"), "--documents", "odd"]).exit_code == 0
    assert AbbreviationLexicon.from_disk(tmp_path / "odd.json").long_forms() == {"CHX": "cycloheximide"}
    (tmp_path / "stats.json").write_text(json.dumps({"dev_articles": ["P004"]}))
    result = runner.invoke(app, [str(captions), str(tmp_path / "held.json"), "--holdout", str(tmp_path / "stats.json")])
    assert result.exit_code == 0, result.output
    held = AbbreviationLexicon.from_disk(tmp_path / "held.json")
    assert held.get("CQ") == "chloroquine" and held.entries["Ub"][1:] == (1, 1) and held.documents == 5
    assert "without the dev articles" in held.source


def test_bad_arguments_and_files_fail_with_a_message(tmp_path):
    captions = write_captions(tmp_path / "captions.tsv")
    runner = CliRunner()
    for args, problem in (([str(tmp_path / "none.tsv"), str(tmp_path / "x.json")], "none.tsv"),
                          ([str(captions), str(tmp_path / "x.json"), "--documents", "half"], "--documents"),
                          ([str(captions), str(tmp_path / "x.json"), "--min-share", "0"], "--min-share"),
                          ([str(captions), str(tmp_path / "x.json"), "--holdout", str(tmp_path / "no.json")], "holdout")):
        result = runner.invoke(app, args)
        assert result.exit_code == 1 and problem in result.output, result.output
