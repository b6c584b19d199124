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
