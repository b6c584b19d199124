import json

import pytest

from training.benchmark.probe_row import main, probe_row

RUN = {"run_seconds": 21.921, "memory_after_run": {"VmHWM": 1263.9, "RssFile": 900.4, "RssAnon": 363.4},
       "resident_files_mb": {"/p/kb_uniprot/tfidf.npz": 50.2, "/p/kb_chebi/tokens.npz": 60.1,
                             "/p/kb_chebi/names.ann": 290.0}}


def test_a_row_is_the_labels_then_time_and_memory_and_the_resident_files_asked_for():
    assert probe_row(RUN, ["1", "now"]) == "| 1 | now | 21.921 | 1263.9 | 900.4 | 363.4 |"
    assert probe_row(RUN, ["2", "before"], ["tfidf.npz", "tokens.npz"]) == \
        "| 2 | before | 21.921 | 1263.9 | 900.4 | 363.4 | 110.3 |"
    assert probe_row(RUN, ["x"], ["names.ann"]).endswith("| 290.0 |")


def test_the_command_reads_the_last_line_of_the_probe_output(tmp_path, capsys):
    (tmp_path / "probe.txt").write_text("a log line\n" + json.dumps(RUN) + "\n\n", encoding="utf8")
    main([str(tmp_path / "probe.txt"), "1", "24"])
    assert capsys.readouterr().out == "| 1 | 24 | 21.921 | 1263.9 | 900.4 | 363.4 |\n"
    (tmp_path / "empty.txt").write_text("", encoding="utf8")
    with pytest.raises(SystemExit):
        main([str(tmp_path / "empty.txt"), "1"])
    without_mappings = {key: value for key, value in RUN.items() if key != "resident_files_mb"}
    (tmp_path / "plain.txt").write_text(json.dumps(without_mappings), encoding="utf8")
    with pytest.raises(SystemExit):
        main([str(tmp_path / "plain.txt"), "1", "--resident", "names.ann"])
