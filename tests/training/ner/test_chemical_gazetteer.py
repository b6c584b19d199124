"""The CHEMICAL gazetteer's names: a chemical's shape, and not mostly unlabelled in the training captions."""
import gzip
import json
from pathlib import Path

import spacy
from spacy.tokens import DocBin
from typer.testing import CliRunner

from training.ner.bio_tokenizer import customize_tokenizer
from training.ner.chemical_gazetteer import app, name_shape_ok, select_names


def test_the_shape_of_a_name() -> None:
    assert name_shape_ok("folate") and name_shape_ok("sialic acid") and name_shape_ok("Mg2+")
    assert name_shape_ok("LFM-A13") and name_shape_ok("Ca2+")
    assert not name_shape_ok("MCP") and not name_shape_ok("Myr") and not name_shape_ok("Fe")  # short words of letters
    assert name_shape_ok("GTP3") and name_shape_ok("zymosan")
    assert not name_shape_ok("BTK inhibitor") and not name_shape_ok("IP3 receptors") and not name_shape_ok("Tris buffer")
    assert not name_shape_ok("x" * 41)


def caption(nlp, text: str, chemicals: list) -> spacy.tokens.Doc:
    doc = nlp.make_doc(text)
    doc.ents = [doc.char_span(text.index(c), text.index(c) + len(c), label="CHEMICAL") for c in chemicals]
    return doc


def test_names_the_training_captions_mostly_leave_unlabelled_are_dropped() -> None:
    nlp = customize_tokenizer(spacy.blank("en"))
    docs = [caption(nlp, "dsRNA of cells with hemin", ["hemin"]), caption(nlp, "dsRNA damage", []),
            caption(nlp, "free dsRNA", ["dsRNA"]), caption(nlp, "hemin oxygenase", [])]
    kept, stats = select_names(["dsRNA", "hemin", "folate", "MCP"], docs, nlp, min_labelled=0.5)
    # dsRNA: 1 of 3 occurrences labelled (dropped); hemin: 1 of 2 (kept); folate: never seen (kept); MCP: shape
    assert kept == ["folate", "hemin"] and stats["dropped_mostly_unlabelled"] == 1
    assert stats["names_with_the_shape"] == 3 and stats["kept_seen_in_training"] == 1


def test_the_command_writes_the_names_and_stats(tmp_path: Path) -> None:
    nlp = customize_tokenizer(spacy.blank("en"))
    DocBin(docs=[caption(nlp, "free dsRNA and zymosan", ["zymosan"])]).to_disk(tmp_path / "train.spacy")
    (tmp_path / "chebi.tsv").write_text("kb_id\tname\tkind\nCHEBI:1\tzymosan\tname\nCHEBI:2\tdsRNA\tname\n", encoding="utf8")
    result = CliRunner().invoke(app, [str(tmp_path / "chebi.tsv"), str(tmp_path / "train.spacy"),
                                      str(tmp_path / "names.txt.gz"), "--stats", str(tmp_path / "stats.json")])
    assert result.exit_code == 0, result.output
    with gzip.open(tmp_path / "names.txt.gz", "rt", encoding="utf8") as file_:
        assert file_.read() == "zymosan\n"
    assert json.loads((tmp_path / "stats.json").read_text())["kept"] == 1
    missing = CliRunner().invoke(app, [str(tmp_path / "none.tsv"), str(tmp_path / "train.spacy"), str(tmp_path / "x.txt")])
    assert missing.exit_code == 1 and "none.tsv" in missing.output
