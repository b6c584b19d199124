"""training.ner.pretrain_text: the JSONL `spacy pretrain` reads (sampled text plus the training captions)."""
import gzip
import json
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin
from thinc.api import Model

from training.ner.pretrain_text import pretrain_text, sample_lines


def write_train(path: Path) -> Path:
    nlp = spacy.blank("en")
    DocBin(docs=[nlp("Trp53 and PKCδ in HeLa cells."), nlp("IL-2Rα staining")]).to_disk(path)
    return path


def write_text(path: Path, lines: list) -> Path:
    with gzip.open(path, "wt", encoding="utf8") as handle:
        handle.write("\n".join(lines) + "\n")
    return path


def read_jsonl(path: Path) -> list:
    return [json.loads(line)["text"] for line in path.read_text(encoding="utf8").splitlines()]


def test_sample_lines_cuts_before_the_token_budget_and_is_seeded() -> None:
    lines = [f"w{i} x y" for i in range(10)]  # 3 tokens each
    kept = sample_lines(lines, 10, seed=3)
    assert len(kept) == 3 and set(kept) <= set(lines)
    assert kept == sample_lines(lines, 10, seed=3)
    assert sorted(sample_lines(lines, 0, seed=3)) == sorted(lines)


def test_pretrain_text_writes_sampled_text_and_every_caption(tmp_path: Path) -> None:
    text = write_text(tmp_path / "text.txt.gz", [f"sentence {i} about LC3 ." for i in range(20)])
    out = tmp_path / "pre" / "text.jsonl"
    stats = pretrain_text(text, write_train(tmp_path / "train.spacy"), out, max_tokens=25, seed=0)
    lines = read_jsonl(out)
    assert stats["sources"] == {"text": {"lines": 5, "tokens": 25}, "captions": {"lines": 2, "tokens": 9}}
    assert "Trp53 and PKCδ in HeLa cells ." in lines and "IL-2Rα staining" in lines
    assert len(lines) == 7 and stats["text_missing"] is False


def test_a_missing_text_file_is_recorded_and_the_captions_used(tmp_path: Path) -> None:
    out = tmp_path / "text.jsonl"
    stats = pretrain_text(tmp_path / "absent.txt.gz", write_train(tmp_path / "train.spacy"), out)
    assert stats["text_missing"] is True
    assert stats["sources"]["text"] == {"lines": 0, "tokens": 0} and len(read_jsonl(out)) == 2


def test_no_text_at_all_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.spacy"
    DocBin().to_disk(empty)
    with pytest.raises(ValueError, match="No text to pretrain on"):
        pretrain_text(None, empty, tmp_path / "text.jsonl")
    with pytest.raises(ValueError, match="max_tokens"):
        pretrain_text(None, write_train(tmp_path / "train.spacy"), tmp_path / "text.jsonl", max_tokens=-1)


def test_the_ner_config_reads_init_tok2vec() -> None:
    """spaCy loads [initialize] init_tok2vec only when [pretraining] names the component: configs/ner.cfg does."""
    config = spacy.util.load_config(Path(__file__).parents[3] / "configs" / "ner.cfg", interpolate=False)
    assert config["pretraining"]["component"] == "tok2vec" and config["pretraining"]["layer"] == ""
    assert config["initialize"]["init_tok2vec"] == "${paths.init_tok2vec}"
    assert config["pretraining"]["corpus"] == "corpora.pretrain" and "pretrain" in config["corpora"]


@pytest.mark.slow
def test_spacy_train_loads_the_pretrained_tok2vec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pitfall, end to end: init_nlp on configs/ner.cfg puts init_tok2vec's weights into the tok2vec."""
    import numpy
    from spacy.training.initialize import init_nlp

    import spacy_nseen  # noqa: F401  (registers the name-feature embedding and components)
    from training.ner import bio_tokenizer  # noqa: F401  (registers the tokenizer callback)

    root = Path(__file__).parents[3]
    monkeypatch.chdir(root)  # the organism ruler's patterns path is relative to the project root
    nlp = spacy.blank("en")
    doc = nlp("LC3 in HeLa cells")
    doc.ents = [doc.char_span(0, 3, label="PROTEIN")]
    DocBin(docs=[doc]).to_disk(tmp_path / "train.spacy")
    config = spacy.util.load_config(root / "configs" / "ner.cfg", interpolate=False, overrides={
        "paths.train": str(tmp_path / "train.spacy"), "paths.dev": str(tmp_path / "train.spacy")})
    cold = init_nlp(config.copy())
    tok2vec = cold.get_pipe("tok2vec").model
    for node in tok2vec.walk():
        for name in node.param_names:
            if node.has_param(name):
                node.set_param(name, node.get_param(name) + 0.5)
    (tmp_path / "tok2vec.bin").write_bytes(tok2vec.to_bytes())
    config["paths"]["init_tok2vec"] = str(tmp_path / "tok2vec.bin")
    want = params(tok2vec)
    got = params(init_nlp(config.copy()).get_pipe("tok2vec").model)
    assert len(got) == len(want) > 0
    assert all(numpy.array_equal(a, b) for a, b in zip(got, want))
    config["pretraining"] = {}  # the pitfall: without the block spaCy ignores init_tok2vec
    ignored = params(init_nlp(config).get_pipe("tok2vec").model)
    assert not all(numpy.array_equal(a, b) for a, b in zip(ignored, want))


def params(model: Model) -> list:
    """RETURNS (list): every parameter array of the model's layers, in walk order."""
    return [node.get_param(name) for node in model.walk() for name in node.param_names if node.has_param(name)]
