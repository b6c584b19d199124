import json

from cli_support import CELL_LINES, link


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
