"""nseen_gazetteer: listed names the NER missed become entities; NER spans are never changed; saved as text + npz."""
import gzip
import json
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Span

from spacy_nseen.errors import ArtifactError, FileProblemError
from spacy_nseen.ner.gazetteer import (
    HASHES_FILE,
    NAMES_FILE,
    PLAIN_NAMES_FILE,
    SETTINGS_FILE,
    Gazetteer,
    key_hash,
    roll_hashes,
    spellings,
)

NAMES = ["folate", "sialic acid", "sialic", "Mg2+", "Ruthenium red", "zymosan"]


@pytest.fixture()
def nlp() -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_gazetteer", name="chemical_gazetteer", config={"label": "CHEMICAL"}).add_names(NAMES)
    return nlp


def ents(doc) -> list:
    return [(e.text, e.label_) for e in doc.ents]


def test_listed_names_become_entities_the_longest_first(nlp: Language) -> None:
    doc = nlp("Cells fed folate, sialic acid and Mg2+ were stained with Ruthenium red.")
    assert ents(doc) == [("folate", "CHEMICAL"), ("sialic acid", "CHEMICAL"), ("Mg2+", "CHEMICAL"),
                         ("Ruthenium red", "CHEMICAL")]


def test_matching_is_by_whole_tokens_and_case(nlp: Language) -> None:
    assert ents(nlp("Folate and folates and antifolate and ZYMOSAN.")) == []


def test_entities_already_there_are_kept_and_never_overlapped(nlp: Language) -> None:
    doc = nlp.make_doc("sialic acid binding lectin and folate")
    doc.ents = [Span(doc, 1, 3, label="PROTEIN")]  # "acid binding", as an NER might tag it
    doc = nlp.get_pipe("chemical_gazetteer")(doc)
    # "sialic acid" overlaps the NER's span: only the shorter name that doesn't is added
    assert ents(doc) == [("sialic", "CHEMICAL"), ("acid binding", "PROTEIN"), ("folate", "CHEMICAL")]


def test_an_empty_gazetteer_changes_nothing() -> None:
    nlp = spacy.blank("en")
    gazetteer = nlp.add_pipe("nseen_gazetteer")
    assert len(gazetteer) == 0 and ents(nlp("folate")) == []


def test_the_rolled_hash_of_a_docs_tokens_is_the_names_hash() -> None:
    doc = spacy.blank("en").make_doc("sialic acid here")
    orths = doc.to_array("ORTH").astype(numpy.uint64)
    assert int(roll_hashes(orths, 2)[0]) == key_hash(["sialic", "acid"])
    assert int(roll_hashes(orths, 1)[1]) == key_hash(["acid"]) != key_hash(["sialic", "acid"])
    assert len(roll_hashes(orths, 4)) == 0


def test_names_too_long_or_blank_are_not_listed() -> None:
    nlp = spacy.blank("en")
    gazetteer = nlp.add_pipe("nseen_gazetteer", config={"max_tokens": 2})
    assert gazetteer.add_names(["one two three", "  ", "one two", "one two"]) == 1
    assert gazetteer.keys() == ["one two"]


def test_initialize_reads_a_names_file_and_a_missing_one_is_named(tmp_path: Path) -> None:
    path = tmp_path / "names.txt"
    path.write_text("folate\nsialic acid\n\n", encoding="utf8")
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_gazetteer")
    nlp.initialize()  # no file: a no-op gazetteer (with a warning)
    assert len(nlp.get_pipe("nseen_gazetteer")) == 0
    nlp.config["initialize"]["components"]["nseen_gazetteer"] = {"names_path": str(path)}
    nlp.initialize()
    assert nlp.get_pipe("nseen_gazetteer").keys() == ["folate", "sialic acid"]
    nlp.config["initialize"]["components"]["nseen_gazetteer"] = {"names_path": str(tmp_path / "gone.txt")}
    with pytest.raises(FileProblemError, match="gone.txt"):
        nlp.initialize()


def test_a_saved_pipeline_loads_with_the_same_names(nlp: Language, tmp_path: Path) -> None:
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.get_pipe("chemical_gazetteer").keys() == nlp.get_pipe("chemical_gazetteer").keys()
    assert ents(loaded("zymosan and folate")) == [("zymosan", "CHEMICAL"), ("folate", "CHEMICAL")]
    names = gzip.decompress((tmp_path / "pipeline" / "chemical_gazetteer" / NAMES_FILE).read_bytes()).decode("utf8")
    assert names.split("\n") == sorted(["folate", "sialic acid", "sialic", "Mg2 +", "Ruthenium red", "zymosan"]) + [""]
    again = spacy.blank("en").add_pipe("nseen_gazetteer").from_bytes(nlp.get_pipe("chemical_gazetteer").to_bytes())
    assert again.keys() == nlp.get_pipe("chemical_gazetteer").keys()


@pytest.mark.parametrize("damage", ["missing names", "missing hashes", "truncated", "cut", "other names", "version",
                                    "bad json", "not an object"])
def test_a_damaged_save_is_refused_naming_the_file(nlp: Language, tmp_path: Path, damage: str) -> None:
    directory = tmp_path / "gazetteer"
    nlp.get_pipe("chemical_gazetteer").to_disk(directory)
    if damage == "missing names":
        (directory / NAMES_FILE).unlink()
    elif damage == "missing hashes":
        (directory / HASHES_FILE).unlink()
    elif damage == "truncated":
        (directory / NAMES_FILE).write_bytes(gzip.compress(b"folate\n"))
    elif damage == "cut":
        (directory / NAMES_FILE).write_bytes((directory / NAMES_FILE).read_bytes()[:-3])
    elif damage == "other names":
        (directory / NAMES_FILE).write_bytes(gzip.compress("".join(f"{name}\n" for name in NAMES).encode()))
    elif damage == "version":
        settings = json.loads((directory / SETTINGS_FILE).read_text(encoding="utf8"))
        (directory / SETTINGS_FILE).write_text(json.dumps({**settings, "format_version": 99}), encoding="utf8")
    elif damage == "not an object":
        (directory / SETTINGS_FILE).write_text("[]", encoding="utf8")
    else:
        (directory / SETTINGS_FILE).write_text("{", encoding="utf8")
    with pytest.raises(ArtifactError, match=str(directory)):
        Gazetteer(spacy.blank("en"), label="CHEMICAL", max_tokens=8).from_disk(directory)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="max_tokens"):
        Gazetteer(spacy.blank("en"), label="CHEMICAL", max_tokens=0)
    with pytest.raises(ValueError, match="label"):
        Gazetteer(spacy.blank("en"), label="", max_tokens=8)


def test_listing_names_adds_nothing_to_the_pipelines_vocab() -> None:
    nlp = spacy.blank("en")
    before = len(nlp.vocab.strings)
    nlp.add_pipe("nseen_gazetteer").add_names(["tetramethylrhodamine", "zymosan A", "LFM-A13"])
    assert len(nlp.vocab.strings) == before and "tetramethylrhodamine" not in nlp.vocab.strings
    assert ents(nlp("with tetramethylrhodamine and LFM-A13")) == [("tetramethylrhodamine", "CHEMICAL"), ("LFM-A13", "CHEMICAL")]


def test_names_are_tokenized_with_the_pipelines_rules() -> None:
    nlp = spacy.blank("en")
    nlp.tokenizer.add_special_case("Mg2+", [{"ORTH": "Mg2+"}])
    gazetteer = nlp.add_pipe("nseen_gazetteer")
    gazetteer.add_names(["Mg2+"])
    assert gazetteer.keys() == ["Mg2+"] and ents(nlp("with Mg2+ ions")) == [("Mg2+", "CHEMICAL")]


def test_a_hyphenated_name_has_the_captions_spelling_too() -> None:
    assert spellings("Y-27632") == ["Y-27632", "Y\u201027632"]
    assert spellings("N-acetyl-L-cysteine") == ["N-acetyl-L-cysteine", "N\u2010acetyl\u2010L\u2010cysteine"]
    assert spellings("Ca2+") == ["Ca2+"] and spellings("-ol") == ["-ol"] and spellings("a - b") == ["a - b"]


def splitting_dashes() -> Language:
    """A blank pipeline that splits `Y‐27632` at the dash, as the caption tokenizer does."""
    nlp = spacy.blank("en")
    nlp.tokenizer.add_special_case("Y\u201027632", [{"ORTH": "Y"}, {"ORTH": "\u2010"}, {"ORTH": "27632"}])
    return nlp


def test_caption_dashes_lists_both_spellings_and_is_saved(tmp_path: Path) -> None:
    nlp = splitting_dashes()
    gazetteer = nlp.add_pipe("nseen_gazetteer", config={"caption_dashes": True})
    assert gazetteer.add_names(["Y-27632"]) == 2
    assert ents(nlp("Y\u201027632 and Y-27632")) == [("Y\u201027632", "CHEMICAL"), ("Y-27632", "CHEMICAL")]
    assert gazetteer.lists("Y\u201027632") and not gazetteer.lists("Y\u201327632")
    nlp.to_disk(tmp_path / "nlp")
    assert spacy.load(tmp_path / "nlp").get_pipe("nseen_gazetteer").caption_dashes is True
    plain = splitting_dashes()
    assert plain.add_pipe("nseen_gazetteer").add_names(["Y-27632"]) == 1  # the default: one spelling
    assert ents(plain("Y\u201027632 and Y-27632")) == [("Y-27632", "CHEMICAL")]


def test_a_save_without_the_names_lengths_is_refused(nlp: Language, tmp_path: Path) -> None:
    directory = tmp_path / "gazetteer"
    nlp.get_pipe("chemical_gazetteer").to_disk(directory)
    settings = json.loads((directory / SETTINGS_FILE).read_text(encoding="utf8"))
    del settings["lengths"]
    (directory / SETTINGS_FILE).write_text(json.dumps(settings), encoding="utf8")
    with pytest.raises(ArtifactError, match="lengths"):
        Gazetteer(spacy.blank("en"), label="CHEMICAL", max_tokens=8).from_disk(directory)


def test_a_lowercase_gazetteer_matches_any_case_and_saves_the_setting(tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    gazetteer = nlp.add_pipe("nseen_gazetteer", config={"label": "PROTEIN", "lowercase": True})
    gazetteer.add_names(["VPS30", "Beclin 1"])
    assert gazetteer.keys() == ["beclin 1", "vps30"]
    assert ents(nlp("Vps30 and BECLIN 1 and vps30")) == [("Vps30", "PROTEIN"), ("BECLIN 1", "PROTEIN"),
                                                         ("vps30", "PROTEIN")]
    nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    assert loaded.get_pipe("nseen_gazetteer").lowercase is True
    assert ents(loaded("vPS30")) == [("vPS30", "PROTEIN")]


def test_a_gazetteer_saved_before_its_options_matches_as_written(nlp: Language, tmp_path: Path) -> None:
    gazetteer = nlp.get_pipe("chemical_gazetteer")
    gazetteer.to_disk(tmp_path / "g")
    settings = json.loads((tmp_path / "g" / SETTINGS_FILE).read_text())
    del settings["lowercase"], settings["caption_dashes"]
    (tmp_path / "g" / SETTINGS_FILE).write_text(json.dumps(settings))
    restored = Gazetteer(nlp, label="CHEMICAL", max_tokens=8, lowercase=True, caption_dashes=True).from_disk(tmp_path / "g")
    assert restored.lowercase is False and restored.caption_dashes is False and len(restored) == len(gazetteer)


def test_clear_forgets_every_name(nlp: Language) -> None:
    gazetteer = nlp.get_pipe("chemical_gazetteer")
    gazetteer.clear()
    assert len(gazetteer) == 0 and ents(nlp("folate")) == []


def test_lists_answers_whether_a_text_is_a_listed_name(nlp: Language) -> None:
    gazetteer = nlp.get_pipe("chemical_gazetteer")
    tokenize = gazetteer.name_tokenizer()
    assert gazetteer.lists("sialic acid", tokenize) and gazetteer.lists("Mg2+") and gazetteer.lists("zymosan")
    assert not gazetteer.lists("Zymosan", tokenize)  # as written: this gazetteer is case-sensitive
    assert not gazetteer.lists("sialic acid red") and not gazetteer.lists("") and not gazetteer.lists("   ")
    lower = Gazetteer(spacy.blank("en"), label="PROTEIN", max_tokens=4, lowercase=True)
    assert not lower.lists("Tau")  # nothing listed yet
    lower.add_names(["Tau", "Beclin 1"])
    assert lower.lists("TAU") and lower.lists("beclin 1") and not lower.lists("Beclin")


def test_the_hash_filter_rules_out_only_unlisted_names() -> None:
    gazetteer = Gazetteer(spacy.blank("en"), label="CHEMICAL", max_tokens=8)
    gazetteer.add_keys([f"name{i}" for i in range(5000)] + ["amino acid"])
    listed = gazetteer._hashes
    others = numpy.random.default_rng(0).integers(0, 2**63, 20_000, dtype=numpy.int64).astype(numpy.uint64)
    queries = numpy.concatenate([others, listed])
    plain = listed[numpy.minimum(listed.searchsorted(queries), len(listed) - 1)] == queries  # no filter
    assert (gazetteer._listed(queries) == plain).all() and gazetteer._listed(listed).all()
    assert gazetteer.lists("amino acid") and not gazetteer.lists("amino")
    gazetteer.add_keys(["amino"])  # new names: the filter is made again
    assert gazetteer.lists("amino")


def test_names_damaged_inside_the_stream_are_named_when_read(nlp: Language, tmp_path: Path) -> None:
    """Loading checks the gzip trailer against gazetteer.json (not the whole stream, to load fast); damage inside
    the stream is an ArtifactError naming the file when the names are read. Matching never reads them."""
    directory = tmp_path / "gazetteer"
    nlp.get_pipe("chemical_gazetteer").to_disk(directory)
    packed = bytearray((directory / NAMES_FILE).read_bytes())
    packed[12:16] = b"\xff\xff\xff\xff"
    (directory / NAMES_FILE).write_bytes(bytes(packed))
    loaded = Gazetteer(spacy.blank("en"), label="CHEMICAL", max_tokens=8).from_disk(directory)
    with pytest.raises(ArtifactError, match=f"{NAMES_FILE}: the names do not decompress"):
        loaded.keys()


def test_a_format_1_save_with_plain_names_still_loads(nlp: Language, tmp_path: Path) -> None:
    gazetteer = nlp.get_pipe("chemical_gazetteer")
    directory = tmp_path / "gazetteer"
    gazetteer.to_disk(directory)
    settings = json.loads((directory / SETTINGS_FILE).read_text(encoding="utf8"))
    del settings["text_bytes"], settings["text_crc32"]
    (directory / SETTINGS_FILE).write_text(json.dumps({**settings, "format_version": 1}), encoding="utf8")
    (directory / PLAIN_NAMES_FILE).write_bytes(gzip.decompress((directory / NAMES_FILE).read_bytes()))
    (directory / NAMES_FILE).unlink()
    loaded = Gazetteer(spacy.blank("en"), label="CHEMICAL", max_tokens=8).from_disk(directory)
    assert loaded.keys() == gazetteer.keys()
    (directory / PLAIN_NAMES_FILE).write_text("folate\n", encoding="utf8")
    with pytest.raises(ArtifactError, match=f"{PLAIN_NAMES_FILE}: 1 names, but"):
        Gazetteer(spacy.blank("en"), label="CHEMICAL", max_tokens=8).from_disk(directory)
    loaded.to_disk(directory)  # saved again over it: format 2 only
    assert not (directory / PLAIN_NAMES_FILE).exists() and (directory / NAMES_FILE).is_file()
    assert Gazetteer(spacy.blank("en"), label="CHEMICAL", max_tokens=8).from_disk(directory).keys() == gazetteer.keys()


def test_the_same_names_save_the_same_bytes(nlp: Language, tmp_path: Path) -> None:
    nlp.get_pipe("chemical_gazetteer").to_disk(tmp_path / "a")
    nlp.get_pipe("chemical_gazetteer").to_disk(tmp_path / "b")
    assert (tmp_path / "a" / NAMES_FILE).read_bytes() == (tmp_path / "b" / NAMES_FILE).read_bytes()
