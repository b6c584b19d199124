import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_nseen.about import ARTIFACT_FORMAT_VERSION
from spacy_nseen.encoder.vocab import BASE_CHARS, DEFAULT_NORMALIZATION, PAD_ID, UNK_ID, CharVocab
from spacy_nseen.errors import ArtifactError


def test_known_characters_get_ids_from_two():
    vocab = CharVocab(list("abc"), capacity=10)
    assert vocab.encode("cab", 10) == [4, 2, 3]
    assert "a" in vocab and "z" not in vocab
    assert len(vocab) == 10


def test_nfc_composed_and_decomposed_share_ids():
    vocab = CharVocab.from_texts(["café"], capacity=200)
    composed, decomposed = "caf\u00e9", "cafe\u0301"
    assert composed != decomposed
    assert vocab.encode(decomposed, 10) == vocab.encode(composed, 10)
    assert len(vocab.encode(decomposed, 10)) == 4
    assert UNK_ID not in vocab.encode(decomposed, 10)


def test_unknown_characters_get_the_unknown_id():
    vocab = CharVocab(list("ab"), capacity=10)
    assert vocab.encode("a🧬蛋\x00b", 10) == [2, UNK_ID, UNK_ID, UNK_ID, 3]


def test_empty_string_encodes_as_one_unknown_id():
    vocab = CharVocab(list("ab"), capacity=10)
    assert vocab.encode("", 10) == [UNK_ID]
    ids, lengths = vocab.batch(["", "ab"], 10)
    assert ids.tolist() == [[UNK_ID, PAD_ID], [2, 3]]
    assert lengths.tolist() == [1, 2]


def test_batch_pads_and_truncates():
    vocab = CharVocab(list("abc"), capacity=10)
    ids, lengths = vocab.batch(["abcabc", "a", "bc"], max_length=4)
    assert ids.tolist() == [[2, 3, 4, 2], [2, 0, 0, 0], [3, 4, 0, 0]]
    assert lengths.tolist() == [4, 1, 2]
    ids, lengths = vocab.batch([], max_length=4)
    assert ids.shape == (0, 1) and lengths.shape == (0,)


def test_capacity_limits_the_ids():
    vocab = CharVocab(list("abcdef"), capacity=5)
    assert vocab.chars == ["a", "b", "c"]
    assert vocab.encode("abcd", 10) == [2, 3, 4, UNK_ID]
    small = CharVocab.from_texts(["xyz"], capacity=50)
    assert max(max(small.encode(BASE_CHARS, 1000)), 0) < 50
    with pytest.raises(ValueError, match="capacity"):
        CharVocab([], capacity=1)
    with pytest.raises(ValueError, match="single character"):
        CharVocab(["ab"], capacity=10)


def test_from_texts_keeps_base_characters_then_frequent_ones():
    vocab = CharVocab.from_texts(["ééé", "ü", "ü", "ü", "ü", "ñ"], capacity=len(BASE_CHARS) + 4)
    assert all(c in vocab for c in "Az09 -αΩ")
    assert vocab.chars[len(BASE_CHARS) :] == ["ü", "é"]  # most frequent first, ñ does not fit


def test_duplicates_are_dropped():
    vocab = CharVocab(list("abca"), capacity=10)
    assert vocab.chars == ["a", "b", "c"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_any_text_encodes_within_capacity(text):
    vocab = CharVocab.from_texts(["PLCγ2 FOXP2"], capacity=120)
    ids = vocab.encode(text, max_length=32)
    assert 1 <= len(ids) <= 32
    assert len(ids) == max(1, min(32, len(vocab.normalize(text))))
    assert all(1 <= i < 120 for i in ids)


def test_disk_round_trip(tmp_path):
    vocab = CharVocab.from_texts(["PLCγ2", "蛋白", "café"], capacity=300)
    path = tmp_path / "char_vocab.json"
    vocab.to_disk(path)
    loaded = CharVocab.from_disk(path)
    assert loaded.chars == vocab.chars and loaded.capacity == 300
    assert loaded.encode("蛋白 PLCγ2", 20) == vocab.encode("蛋白 PLCγ2", 20)


def test_missing_corrupt_and_other_version_files(tmp_path):
    path = tmp_path / "char_vocab.json"
    with pytest.raises(ArtifactError, match="not found") as err:
        CharVocab.from_disk(path)
    assert err.value.path == path
    path.write_text('{"format_version": 1, "capa', encoding="utf8")
    with pytest.raises(ArtifactError, match="not a valid character vocabulary") as err:
        CharVocab.from_disk(path)
    assert str(path) in str(err.value)
    path.write_text(json.dumps({"format_version": ARTIFACT_FORMAT_VERSION, "chars": "ab"}), encoding="utf8")
    with pytest.raises(ArtifactError, match="not a valid"):
        CharVocab.from_disk(path)
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ArtifactError, match="not a valid"):
        CharVocab.from_disk(path)
    path.write_text(json.dumps({"format_version": ARTIFACT_FORMAT_VERSION + 1, "capacity": 10, "chars": "ab"}))
    with pytest.raises(ArtifactError, match=f"artifact format {ARTIFACT_FORMAT_VERSION + 1}") as err:
        CharVocab.from_disk(path)
    assert str(path) in str(err.value)


def test_fold_normalization_encodes_case_and_greek_variants_alike():
    vocab = CharVocab.from_texts(["TGFβ", "Drp1"], capacity=200, normalization="fold")
    assert vocab.normalization == "fold"
    assert vocab.encode("Drp1", 10) == vocab.encode("DRP1", 10) == vocab.encode("drp1", 10)
    assert vocab.encode("TGFβ", 20) == vocab.encode("TGF\u2010Beta", 20) == vocab.encode("tgf-beta", 20)
    assert UNK_ID not in vocab.encode("β-catenin", 20)
    nfc = CharVocab.from_texts(["TGFβ", "Drp1"], capacity=200, normalization="nfc")
    assert nfc.normalization == "nfc" and nfc.encode("Drp1", 10) != nfc.encode("DRP1", 10)
    assert CharVocab.from_texts(["Drp1"], capacity=200).normalization == DEFAULT_NORMALIZATION == "fold"


def test_normalization_is_saved_and_older_files_read_as_nfc(tmp_path):
    path = tmp_path / "char_vocab.json"
    CharVocab.from_texts(["PLCγ2"], capacity=200, normalization="fold").to_disk(path)
    assert CharVocab.from_disk(path).normalization == "fold"
    data = json.loads(path.read_text(encoding="utf8"))
    del data["normalization"]  # a vocabulary written before the setting existed
    path.write_text(json.dumps(data), encoding="utf8")
    assert CharVocab.from_disk(path).normalization == "nfc"


def test_unknown_normalization_is_refused(tmp_path):
    with pytest.raises(ValueError, match="normalization must be one of"):
        CharVocab(list("ab"), capacity=10, normalization="lower")
    with pytest.raises(ValueError, match="normalization must be one of"):
        CharVocab.from_texts(["ab"], capacity=10, normalization="lower")
    path = tmp_path / "char_vocab.json"
    data = CharVocab(list("ab"), capacity=10).to_dict()
    data["normalization"] = "lower"
    path.write_text(json.dumps(data), encoding="utf8")
    with pytest.raises(ArtifactError, match="not a valid character vocabulary") as err:
        CharVocab.from_disk(path)
    assert err.value.path == path


def test_input_key_is_what_the_encoder_reads():
    fold = CharVocab.from_texts(["Drp1"], capacity=200, normalization="fold")
    assert fold.input_key("Drp1", 10) == fold.input_key("DRP1", 10) == "".join(map(chr, fold.encode("drp1", 10)))
    assert fold.input_key("Drp1", 10) != fold.input_key("Drp2", 10)
    assert fold.input_key("Drp1-long name", 4) == fold.input_key("DRP1", 4)  # cut to max_length
    assert fold.input_key("\u2603", 10) == fold.input_key("\u2604", 10) == chr(UNK_ID)  # both unknown
    nfc = CharVocab.from_texts(["Drp1"], capacity=200, normalization="nfc")
    assert nfc.input_key("Drp1", 10) != nfc.input_key("DRP1", 10)
