import json

from cli_support import CELL_LINES, link

from spacy_nseen.synonyms.review_file import ReviewRow, write_review_file


def test_build_kb_with_an_encoder_of_another_reference_set(run_cli, tmp_path, linker_dirs):
    """A linker directory serves as the encoder; its sizes come from its own encoder.json."""
    result = run_cli("build-kb", str(CELL_LINES), "cells", "--encoder", str(linker_dirs["uniprot"]))
    assert "20 names of 9 entities" in result.stdout
    stats = json.loads((tmp_path / "cells" / "build_stats.json").read_text())
    assert stats["encoder_config"]["hidden_width"] == 32 and stats["names"] == 20
    doc = link(tmp_path / "cells", "HeLa and U-2OS cells", ["HeLa", "U-2OS"])
    assert [(e.text, e.kb_id_) for e in doc.ents] == [("HeLa", "CVCL_0030"), ("U-2OS", "CVCL_0042")]


def test_a_names_file_without_header_gives_the_same_linker(run_cli, tmp_path, linker_dirs):
    headless = tmp_path / "headless.tsv"
    headless.write_text("".join(CELL_LINES.read_text(encoding="utf8").splitlines(keepends=True)[1:]), encoding="utf8")
    run_cli("build-kb", str(CELL_LINES), "with_header", "--encoder", str(linker_dirs["encoder"]))
    run_cli("build-kb", str(headless), "without_header", "--encoder", str(linker_dirs["encoder"]))
    for name in ("lookup.npz", "names.ann"):
        assert (tmp_path / "with_header" / name).read_bytes() == (tmp_path / "without_header" / name).read_bytes()


def test_bad_input_fails_with_one_line_naming_the_file(run_cli, tmp_path, linker_dirs):
    bad = tmp_path / "bad.tsv"
    bad.write_text("kb_id\tname\nCVCL_1 HeLa with spaces, no tab\n", encoding="utf8")
    result = run_cli("build-kb", str(bad), "out", "--encoder", str(linker_dirs["encoder"]), check=False)
    assert result.returncode == 1 and "bad.tsv: line 2 has no tab" in result.stderr and "Traceback" not in result.stderr
    result = run_cli("build-kb", str(CELL_LINES), "out", "--encoder", str(tmp_path / "no_encoder"), check=False)
    assert result.returncode == 1 and "encoder.json" in result.stderr and "Traceback" not in result.stderr


def test_the_command_line_lists_its_commands(run_cli):
    result = run_cli("--help")
    assert "build-kb" in result.stdout and "train-encoder" in result.stdout


def test_build_kb_can_index_the_names_short_forms(run_cli, tmp_path, linker_dirs):
    names = tmp_path / "lc3.tsv"
    names.write_text("kb_id\tname\tkind\nUniProt:Q9H492\tAutophagy-related protein LC3 A\talternative\n"
                     "UniProt:Q9GZQ8\tAutophagy-related protein LC3 B\talternative\n", encoding="utf8")
    result = run_cli("build-kb", str(names), "lc3", "--encoder", str(linker_dirs["encoder"]), "--short-forms")
    assert "2 names (+" in result.stdout
    stats = json.loads((tmp_path / "lc3" / "build_stats.json").read_text())
    assert stats["names"] == 2 + stats["short_forms"] and stats["short_forms"] >= 3  # LC3 A, LC3 B, LC3, ...
    run_cli("build-kb", str(names), "plain", "--encoder", str(linker_dirs["encoder"]))
    assert json.loads((tmp_path / "plain" / "build_stats.json").read_text())["short_forms"] == 0


def test_build_kb_fits_a_nil_model_that_leaves_made_up_names_unlinked(run_cli, tmp_path, linker_dirs):
    result = run_cli("build-kb", str(CELL_LINES), "cells", "--encoder", str(linker_dirs["uniprot"]))
    assert "NIL model: threshold" in result.stdout and "ROC AUC" in result.stdout
    stats = json.loads((tmp_path / "cells" / "build_stats.json").read_text())
    model = json.loads((tmp_path / "cells" / "nil_model.json").read_text())
    assert stats["nil_model"]["threshold"] == model["threshold"] and "roc_auc" in stats["nil_model"]["held_out"]
    doc = link(tmp_path / "cells", "HeLa, U-2OS, HEK-294 and Qz-771", ["HeLa", "U-2OS", "HEK-294", "Qz-771"])
    assert [(e.text, e.kb_id_) for e in doc.ents] == [("HeLa", "CVCL_0030"), ("U-2OS", "CVCL_0042"), ("HEK-294", ""),
                                                    ("Qz-771", "")]
    run_cli("build-kb", str(CELL_LINES), "plain", "--encoder", str(linker_dirs["uniprot"]), "--no-nil")
    assert not (tmp_path / "plain" / "nil_model.json").exists()


def test_build_kb_adds_the_accepted_rows_of_review_files_as_discovered_names(run_cli, tmp_path, linker_dirs):
    rows = [ReviewRow("Zorbla-7 cells", "cells", "CVCL_0030", "HeLa", 0.9, decision="accept"),
            ReviewRow("HEK-Qx", "cells", "CVCL_0045", "HEK293", 0.8, decision="accept"),
            ReviewRow("HELA", "cells", "CVCL_0030", "HeLa", 0.9, decision="accept"),  # already a name
            ReviewRow("Nope cells", "cells", "CVCL_0045", "HEK293", 0.4, decision="reject"),
            ReviewRow("Brainy", "other_kb", "X:1", "?", 0.9, decision="accept")]
    write_review_file(tmp_path / "review.tsv", rows, {"corpus": "captions-2024"})
    result = run_cli("build-kb", str(CELL_LINES), "cells", "--encoder", str(linker_dirs["encoder"]), "--no-nil",
                     "--extra-names", str(tmp_path / "review.tsv"))
    assert "2 added as kind 'discovered' {'captions-2024': 2}, 1 already names of their entity" in result.stdout
    meta = json.loads((tmp_path / "cells" / "linker.json").read_text())
    assert meta["n_names"] == 22 and "added_names" not in meta  # built with the names: no side block
    assert meta["discovered_names"] == {"n_names": 2, "sources": {"captions-2024": 2}, "n_added_after_build": 0}
    doc = link(tmp_path / "cells", "Zorbla-7 cells and HEK-Qx", ["Zorbla-7 cells", "HEK-Qx"])
    assert [e.kb_id_ for e in doc.ents] == ["CVCL_0030", "CVCL_0045"]


def test_build_kb_extra_names_errors_name_the_file_and_the_unknown_ids(run_cli, tmp_path, linker_dirs):
    review = tmp_path / "review.tsv"
    write_review_file(review, [ReviewRow("Qz", "cells", "CVCL_NOPE", "?", 0.9, decision="accept")], {})
    args = ["build-kb", str(CELL_LINES), "cells", "--encoder", str(linker_dirs["encoder"]), "--no-nil", "--extra-names"]
    result = run_cli(*args, str(review), check=False)
    assert result.returncode == 1 and "CVCL_NOPE" in result.stderr and "Traceback" not in result.stderr
    assert "1 unknown id(s) left out: CVCL_NOPE" in run_cli(*args, str(review), "--skip-unknown").stdout
    review.write_text(review.read_text().replace("accept", "maybe"), encoding="utf8")
    result = run_cli(*args, str(review), check=False)
    assert result.returncode == 1 and "review.tsv: line" in result.stderr and "'maybe'" in result.stderr
    result = run_cli(*args[:-1], "--kb-name", "uniprot", "--extra-names", str(review.with_name("none.tsv")), check=False)
    assert result.returncode == 1 and "none.tsv: review file not found" in result.stderr
    write_review_file(review, [ReviewRow("Qz", "chebi", "CHEBI:1", "?", 0.9, decision="accept")], {})
    result = run_cli(*args, str(review), check=False)
    assert result.returncode == 1 and "has accepted rows for ['chebi'] only, none for 'cells'" in result.stderr
