"""Corrupt or mismatched artifacts fail at load time with an `ArtifactError` naming the file and what to do
(issue 7). Nothing here waits for the first document to find out."""
import gzip
import json
import shutil
import warnings
from pathlib import Path
from typing import Callable, Dict

import numpy
import pytest
import spacy
import torch
from rel_support import KBS, TINY_ENCODER, make_pipeline, tiny_encoder_block

from spacy_nseen.encoder.layer import build_char_bilstm_encoder, set_char_vocab
from spacy_nseen.encoder.vocab import CharVocab
from spacy_nseen.encoder.weights_io import CONFIG_FILE, VOCAB_FILE, WEIGHTS_FILE, save_encoder
from spacy_nseen.errors import ArtifactError
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.linker.storage import INDEX_FILE, META_FILE, REFERENCE_FILE, TFIDF_FILE
from spacy_nseen.parts.kb_loaders import linker_directory_block
from spacy_nseen.parts.knowledge_bases import label_blocks
from spacy_nseen.retrieval.name_index import AnnoyNameIndex


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


CORRUPTIONS: Dict[str, Callable[[Path], None]] = {
    "missing": lambda path: path.unlink(),
    "zero_bytes": lambda path: path.write_bytes(b""),
    "truncated": truncate,
}


@pytest.fixture
def linker_copy(tmp_path, rel_linker_dirs) -> Path:
    """A private copy of the saved uniprot linker directory."""
    return Path(shutil.copytree(rel_linker_dirs["uniprot"], tmp_path / "uniprot"))


def assert_names_the_file(err: pytest.ExceptionInfo, path: Path) -> None:
    error = err.value
    assert error.path == path, f"the error names {error.path}, the broken file is {path}: {error}"
    assert str(path) in str(error) and error.fix.strip(), str(error)


# Files a linker cannot load without. The others (`reference.tsv.gz`, and `lookup.npz` where the layout has
# it) hold the reference set twice: one may be missing, and then the other is used.
REQUIRED = {WEIGHTS_FILE, VOCAB_FILE, CONFIG_FILE, META_FILE, INDEX_FILE, INDEX_FILE + ".json", TFIDF_FILE}
PROBES = ["PLCG2", "plc gamma 2", "FOXP2", "odd \x00 mention", "", "\u03b3"]


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_every_file_of_a_linker_directory(rel_linker_dirs, tmp_path, corruption):
    """Each file of a saved linker, in turn missing, empty or cut in half: the load fails naming that file;
    only a redundant copy of the reference set may be missing, and then the links are unchanged."""
    saved = rel_linker_dirs["uniprot"]
    files = sorted(p.name for p in saved.iterdir() if p.is_file())
    assert REQUIRED | {REFERENCE_FILE} <= set(files)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = KnowledgeBaseLinker.from_disk(saved).link(PROBES)
    for name in files:
        directory = Path(shutil.copytree(saved, tmp_path / f"{corruption}_{name}"))
        CORRUPTIONS[corruption](directory / name)
        if name in REQUIRED:
            with pytest.raises(ArtifactError) as err:
                KnowledgeBaseLinker.from_disk(directory)
            assert_names_the_file(err, directory / name)
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                linker = KnowledgeBaseLinker.from_disk(directory)
        except ArtifactError as error:
            assert name in str(error) and error.path.parent == directory and error.fix.strip(), str(error)
        else:
            assert corruption == "missing", f"a {corruption} {name} was loaded"
            assert linker.link(PROBES) == expected


@pytest.fixture(scope="module")
def saved_pipeline(tmp_path_factory, rel_linker_dirs) -> Path:
    """A pipeline saved with `nlp.to_disk`. Its linkers are loaded copies: after `to_disk` an Annoy index
    maps the file it saved, so the session's linkers must never map a file that a test corrupts."""
    linkers = {kb: KnowledgeBaseLinker.from_disk(path) for kb, path in rel_linker_dirs.items()}
    path = tmp_path_factory.mktemp("saved_pipeline") / "pipeline"
    make_pipeline(linkers, with_ner=False).to_disk(path)
    return path


@pytest.mark.parametrize("name", [WEIGHTS_FILE, VOCAB_FILE, INDEX_FILE, TFIDF_FILE])
@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_spacy_load_fails_before_the_first_document(saved_pipeline, tmp_path, name, corruption):
    """A saved pipeline with a broken linker file: `spacy.load` itself raises, naming the file."""
    pipeline = Path(shutil.copytree(saved_pipeline, tmp_path / "pipeline"))
    broken = pipeline / "nseen_linker" / "kb_uniprot" / name
    CORRUPTIONS[corruption](broken)
    with pytest.raises(ArtifactError) as err:
        spacy.load(pipeline)
    assert_names_the_file(err, broken)


def test_a_missing_linker_directory(saved_pipeline, tmp_path):
    pipeline = Path(shutil.copytree(saved_pipeline, tmp_path / "pipeline"))
    shutil.rmtree(pipeline / "nseen_linker" / "kb_chebi")
    with pytest.raises(ArtifactError, match="kb_chebi"):
        spacy.load(pipeline)


def other_encoder(**overrides) -> torch.nn.Module:
    config = {**TINY_ENCODER, **overrides}
    encoder = build_char_bilstm_encoder(**config)
    set_char_vocab(encoder, CharVocab.from_texts(["PLCG2"], int(config["vocab_size"])))
    return encoder


def test_weights_of_another_size(linker_copy, tmp_path):
    save_encoder(other_encoder(hidden_width=24), tmp_path / "other")
    shutil.copy(tmp_path / "other" / WEIGHTS_FILE, linker_copy / WEIGHTS_FILE)
    with pytest.raises(ArtifactError, match="do not fit") as err:
        KnowledgeBaseLinker.from_disk(linker_copy)
    assert_names_the_file(err, linker_copy / WEIGHTS_FILE)


def test_an_encoder_of_another_shape_than_the_component_config(rel_linker_dirs, tmp_path):
    """The linker directory holds a 24-wide encoder, the component's [encoder] block says 16."""
    directory = Path(shutil.copytree(rel_linker_dirs["uniprot"], tmp_path / "uniprot"))
    save_encoder(other_encoder(hidden_width=24), directory)
    nlp = spacy.blank("en")
    nlp.add_pipe("nseen_linker", config={"kbs": label_blocks(KBS), "encoder": tiny_encoder_block()})
    loaders = {"uniprot": linker_directory_block(directory), "chebi": linker_directory_block(rel_linker_dirs["chebi"])}
    nlp.config["initialize"]["components"]["nseen_linker"] = {"kb_loaders": loaders}
    with pytest.raises(ArtifactError, match=r"hidden_width: saved 24 vs configured 16") as err:
        nlp.initialize()
    assert_names_the_file(err, directory / CONFIG_FILE)
    assert "[encoder] block" in err.value.fix


def test_an_index_built_with_another_dimension(linker_copy, rel_linkers):
    n_items = len(rel_linkers["uniprot"].reference_set)
    vectors = numpy.random.default_rng(0).normal(size=(n_items, 8)).astype(numpy.float32)
    AnnoyNameIndex.build(vectors, n_trees=2).save(linker_copy / INDEX_FILE)
    with pytest.raises(ArtifactError, match="8-d vectors, the encoder makes 16-d") as err:
        KnowledgeBaseLinker.from_disk(linker_copy)
    assert_names_the_file(err, linker_copy / INDEX_FILE)


def test_an_encoder_with_another_output_width_than_the_index(linker_copy):
    """Weights, vocabulary and config of a 24-d encoder in place of the 16-d one: the index no longer fits."""
    save_encoder(other_encoder(output_width=24), linker_copy)
    with pytest.raises(ArtifactError, match="16-d vectors, the encoder makes 24-d") as err:
        KnowledgeBaseLinker.from_disk(linker_copy)
    assert_names_the_file(err, linker_copy / INDEX_FILE)


def read_rows(path: Path):
    with gzip.open(path, "rt", encoding="utf8") as file_:
        return file_.read().splitlines()


def write_rows(path: Path, lines) -> None:
    with gzip.open(path, "wt", encoding="utf8") as file_:
        file_.write("\n".join(lines) + "\n")


@pytest.mark.filterwarnings("ignore:.*was written with another reference.tsv.gz")  # the tampered copy: warned, then read from the TSV
def test_a_reference_set_with_fewer_rows_than_the_index(linker_copy):
    lines = read_rows(linker_copy / REFERENCE_FILE)
    write_rows(linker_copy / REFERENCE_FILE, lines[: len(lines) // 2])
    with pytest.raises(ArtifactError) as err:
        KnowledgeBaseLinker.from_disk(linker_copy)
    assert REFERENCE_FILE in str(err.value) and err.value.fix.strip()
    for extra in linker_copy.iterdir():  # without a second copy of the set (e.g. lookup.npz), the table decides
        if extra.name not in REQUIRED | {REFERENCE_FILE}:
            extra.unlink()
    with pytest.raises(ArtifactError) as err, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        KnowledgeBaseLinker.from_disk(linker_copy)
    assert_names_the_file(err, linker_copy / REFERENCE_FILE)


def test_a_reference_set_with_fewer_rows_and_matching_metadata(linker_copy):
    """Even when linker.json is edited to agree, the other files disagree with the table."""
    lines = read_rows(linker_copy / REFERENCE_FILE)
    kept = lines[: len(lines) // 2]
    write_rows(linker_copy / REFERENCE_FILE, kept)
    meta = json.loads((linker_copy / META_FILE).read_text())
    meta["n_names"] = len(kept) - 1
    (linker_copy / META_FILE).write_text(json.dumps(meta))
    with pytest.raises(ArtifactError) as err, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        KnowledgeBaseLinker.from_disk(linker_copy)
    assert err.value.path.parent == linker_copy and err.value.path.name != META_FILE and err.value.fix.strip()


def test_a_vocabulary_of_another_capacity(linker_copy):
    CharVocab.from_texts(["PLCG2"], 64).to_disk(linker_copy / VOCAB_FILE)
    with pytest.raises(ArtifactError, match="capacity") as err:
        KnowledgeBaseLinker.from_disk(linker_copy)
    assert_names_the_file(err, linker_copy / VOCAB_FILE)


@pytest.mark.parametrize("name", [META_FILE, CONFIG_FILE, VOCAB_FILE, INDEX_FILE + ".json"])
def test_json_files_of_another_format_version(linker_copy, name):
    path = linker_copy / name
    data = json.loads(path.read_text(encoding="utf8"))
    data["format_version"] = 999
    path.write_text(json.dumps(data), encoding="utf8")
    with pytest.raises(ArtifactError, match="999") as err:
        KnowledgeBaseLinker.from_disk(linker_copy)
    assert_names_the_file(err, path)


def test_initialize_with_a_broken_encoder_or_reference_set(rel_linker_dirs, tmp_path):
    """`nlp.initialize` with encoder and reference-set paths fails at initialize, naming the file."""
    encoder_dir = Path(shutil.copytree(rel_linker_dirs["uniprot"], tmp_path / "encoder"))
    reference = tmp_path / "uniprot.tsv.gz"
    shutil.copy(encoder_dir / REFERENCE_FILE, reference)
    chebi = tmp_path / "chebi.tsv.gz"
    shutil.copy(rel_linker_dirs["chebi"] / REFERENCE_FILE, chebi)

    def initialize():
        nlp = spacy.blank("en")
        nlp.add_pipe("nseen_linker", config={"kbs": label_blocks(KBS), "encoder": tiny_encoder_block()})
        names = {"uniprot": reference, "chebi": chebi}
        nlp.config["initialize"]["components"]["nseen_linker"] = {
            "kb_loaders": {
                kb: {"@misc": "spacy_nseen.EncoderAndNames.v1", "encoder": str(encoder_dir), "reference_set": str(path)}
                for kb, path in names.items()
            }
        }
        nlp.initialize()
        return nlp

    assert initialize()("PLCG2").text == "PLCG2"
    truncate(reference)
    with pytest.raises(ArtifactError) as err:
        initialize()
    assert_names_the_file(err, reference)
    (encoder_dir / WEIGHTS_FILE).write_bytes(b"")
    with pytest.raises(ArtifactError) as err:
        initialize()
    assert_names_the_file(err, encoder_dir / WEIGHTS_FILE)
