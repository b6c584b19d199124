import json

from cli_support import CELL_LINES, link

from spacy_nseen.encoder.weights_io import read_encoder_config

SMALL = ["--depth", "1", "--hidden-width", "32", "--char-width", "32", "--output-width", "64", "--batch-pairs", "64"]


def test_train_encoder_then_build_kb_links_the_example(run_cli, tmp_path):
    result = run_cli("train-encoder", str(CELL_LINES), "cells_encoder", "--max-steps", "120", *SMALL)
    assert "20 names of 9 entities, 120 steps" in result.stdout
    assert "\r" not in result.stderr  # no progress bar without a terminal
    summary = json.loads((tmp_path / "cells_encoder" / "training_summary.json").read_text())
    assert sum(r["steps"] for r in summary["rounds"]) == 120 and summary["rounds"][0]["hard_negatives_added"] > 0
    assert read_encoder_config(tmp_path / "cells_encoder")["output_width"] == 64
    run_cli("build-kb", str(CELL_LINES), "cells", "--encoder", "cells_encoder")
    doc = link(tmp_path / "cells", "HEK-293 and MCF 7 cells", ["HEK-293", "MCF 7 cells"])
    assert [e.kb_id_ for e in doc.ents] == ["CVCL_0045", "CVCL_0031"]


def test_the_same_seed_gives_the_same_encoder(run_cli, tmp_path):
    for out in ("a", "b"):
        run_cli("train-encoder", str(CELL_LINES), out, "--max-steps", "20", *SMALL)
    assert (tmp_path / "a" / "encoder.safetensors").read_bytes() == (tmp_path / "b" / "encoder.safetensors").read_bytes()


def test_char_normalization_is_chosen_saved_and_checked(run_cli, tmp_path):
    from spacy_nseen.encoder.vocab import CharVocab

    for normalization in ("fold", "nfc"):
        run_cli("train-encoder", str(CELL_LINES), normalization, "--max-steps", "4", "--char-normalization",
                normalization, *SMALL)
        vocab = CharVocab.from_disk(tmp_path / normalization / "char_vocab.json")
        summary = json.loads((tmp_path / normalization / "training_summary.json").read_text())
        assert vocab.normalization == summary["char_normalization"] == normalization
    bad = run_cli("train-encoder", str(CELL_LINES), "bad", "--char-normalization", "lower", check=False)
    assert bad.returncode != 0 and "--char-normalization" in bad.stderr and "fold" in bad.stderr
    assert not (tmp_path / "bad").exists()
