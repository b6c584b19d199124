"""The name features' lists: reference names the training captions do not mostly leave without the label, lower-cased."""
import gzip
import json
from pathlib import Path
from typing import List, Tuple

import pytest
import spacy
from spacy.tokens import DocBin
from typer.testing import CliRunner

from training.ner.bio_tokenizer import customize_tokenizer
from training.ner.name_lists import app, name_shape_ok, species_names


def caption(nlp: spacy.Language, text: str, ents: List[Tuple[str, str]]) -> spacy.tokens.Doc:
    doc = nlp.make_doc(text)
    doc.ents = [doc.char_span(text.index(t), text.index(t) + len(t), label=label) for t, label in ents]
    return doc


def read(path: Path) -> List[str]:
    with gzip.open(path, "rt", encoding="utf8") as file_:
        return file_.read().splitlines()


def test_the_shape_rule() -> None:
    assert name_shape_ok("Atg5") and name_shape_ok("p6") and not name_shape_ok("A") and not name_shape_ok("x" * 61)


def test_species_names_add_the_abbreviated_binomial(tmp_path: Path) -> None:
    (tmp_path / "cells.tsv").write_text("cellosaurus_id\tname\tspecies\ttaxon_id\nCVCL_1\tNIH 3T3\tMus musculus\t10090\n"
                                        "CVCL_2\tX1\t\t\n", encoding="utf8")
    names = species_names(tmp_path / "cells.tsv")
    assert {"Mus musculus", "M. musculus", "mice", "zebrafish"} <= names and "" not in names


def test_protein_names_mostly_unlabelled_in_any_case_are_dropped(tmp_path: Path) -> None:
    nlp = customize_tokenizer(spacy.blank("en"))
    docs = [caption(nlp, "Vps30 and Atg14 or Vps34", [("Vps30", "GENE"), ("Atg14", "PROTEIN")]),
            caption(nlp, "Or else", [])]
    DocBin(docs=docs).to_disk(tmp_path / "train.spacy")
    (tmp_path / "uniprot.tsv").write_text("kb_id\tname\tkind\tORG\nU:1\tVPS30\tgene\t1\nU:2\tOR\tgene\t1\n"
                                          "U:3\tSlc9a3r1\tgene\t1\nU:4\tA\tgene\t1\nU:5\tNTG\talias\t1\n"
                                          "U:6\tCtrl\tgene\t1\n", encoding="utf8")
    result = CliRunner().invoke(app, ["protein", str(tmp_path / "uniprot.tsv"), str(tmp_path / "train.spacy"),
                                      str(tmp_path / "p.txt.gz"), "--stats", str(tmp_path / "p.json")])
    assert result.exit_code == 0, result.output
    # VPS30 matches Vps30 (a GENE); OR matches "or" and "Or", never labelled; Slc9a3r1 is never seen; A is too short;
    # NTG and Ctrl are never seen, but name experimental groups (non-transgenic, control), never a protein
    assert read(tmp_path / "p.txt.gz") == ["Slc9a3r1", "VPS30"]
    assert json.loads((tmp_path / "p.json").read_text())["labels"] == ["GENE", "PROTEIN"]


def test_cell_and_organism_lists(tmp_path: Path) -> None:
    nlp = customize_tokenizer(spacy.blank("en"))
    docs = [caption(nlp, "HeLa cells from mice", [("HeLa", "CELL"), ("mice", "ORGANISM")])]
    DocBin(docs=docs).to_disk(tmp_path / "train.spacy")
    (tmp_path / "cells.tsv").write_text("cellosaurus_id\tname\tspecies\ttaxon_id\nCVCL_1\tHeLa\tHomo sapiens\t9606\n",
                                        encoding="utf8")
    for kind in ("cell", "organism"):
        result = CliRunner().invoke(app, [kind, str(tmp_path / "cells.tsv"), str(tmp_path / "train.spacy"),
                                          str(tmp_path / f"{kind}.txt.gz")])
        assert result.exit_code == 0, result.output
    assert read(tmp_path / "cell.txt.gz") == ["HeLa"]
    assert {"Homo sapiens", "H. sapiens", "mice"} <= set(read(tmp_path / "organism.txt.gz"))


@pytest.mark.parametrize("kind", ["protein", "cell", "organism"])
def test_a_missing_source_is_named(tmp_path: Path, kind: str) -> None:
    DocBin().to_disk(tmp_path / "train.spacy")
    result = CliRunner().invoke(app, [kind, str(tmp_path / "none.tsv"), str(tmp_path / "train.spacy"),
                                      str(tmp_path / "x.txt")])
    assert result.exit_code == 1 and "none.tsv" in result.output
