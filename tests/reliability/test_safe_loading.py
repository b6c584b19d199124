"""Safe loading (issue 7): nothing on the load path unpickles, and a crafted pickle placed where an
artifact is expected is refused without running its payload."""
import ast
import io
import pickle
import shutil
import warnings
import zipfile
from pathlib import Path
from typing import List

import numpy
import pytest
import spacy
import torch
from rel_support import make_pipeline

import spacy_nseen
from spacy_nseen.errors import ArtifactError
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker

PACKAGE = Path(spacy_nseen.__file__).parent
PICKLE_MODULES = {"pickle", "_pickle", "cPickle", "dill", "cloudpickle", "joblib", "marshal", "shelve"}
PICKLE_FUNCTIONS = {"pickle_loads", "read_pickle", "Unpickler"}  # srsly's pickle helpers, pickle.Unpickler


def unsafe_calls(source: str) -> List[str]:
    """The calls in `source` that could unpickle or run data as code."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [alias.name for alias in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            found += [f"line {node.lineno}: imports {name}" for name in names if name.split(".")[0] in PICKLE_MODULES]
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        owner = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else ""
        keywords = {kw.arg: kw.value for kw in node.keywords}
        where = f"line {node.lineno}: {owner + '.' if owner else ''}{name}"
        if name in ("eval", "exec") and not owner or name in PICKLE_FUNCTIONS or owner in PICKLE_MODULES:
            found.append(where)
        elif owner == "torch" and name == "load":
            weights_only = keywords.get("weights_only")
            if not (isinstance(weights_only, ast.Constant) and weights_only.value is True):
                found.append(where + " without weights_only=True")
        elif owner == "yaml" and name in ("load", "load_all", "unsafe_load"):
            found.append(where)
        allow_pickle = keywords.get("allow_pickle")
        if allow_pickle is not None and not (isinstance(allow_pickle, ast.Constant) and allow_pickle.value is False):
            found.append(where + " with allow_pickle not False")
    return found


def test_the_scan_finds_what_it_looks_for():
    source = (
        "import pickle\nimport numpy as np\nimport torch\n"
        "pickle.loads(b'')\nnp.load('x', allow_pickle=True)\ntorch.load('x')\ntorch.load('x', weights_only=False)\n"
        "eval('1')\nsrsly.read_pickle('x')\n"
        "np.load('x', allow_pickle=False)\ntorch.load('x', weights_only=True)\nnp.load('x')\n"
    )
    assert len(unsafe_calls(source)) == 7  # the import and six calls; the last three lines are safe


@pytest.mark.parametrize("module", sorted(p.name for p in PACKAGE.glob("*.py")))
def test_no_module_of_the_package_can_unpickle(module):
    assert unsafe_calls((PACKAGE / module).read_text(encoding="utf8")) == []


class Payload:
    """Unpickling this writes a marker file: proof that the pickle ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').close()",))


def crafted_pickle(marker: Path) -> bytes:
    return pickle.dumps(Payload(marker))


def crafted_torch_file(marker: Path) -> bytes:
    """What `torch.save` writes: a zip archive whose data.pkl holds the payload."""
    buffer = io.BytesIO()
    torch.save({"embed.weight": Payload(marker)}, buffer)
    return buffer.getvalue()


def crafted_npz(marker: Path, names: List[str]) -> bytes:
    """An .npz with the expected array names, one of them an object array that unpickles the payload."""
    buffer = io.BytesIO()
    arrays = {name: numpy.zeros(1) for name in names}
    arrays[names[0]] = numpy.array([Payload(marker)], dtype=object)
    numpy.savez(buffer, **arrays)
    return buffer.getvalue()


CRAFTED = {"pickle": crafted_pickle, "torch_save": crafted_torch_file}


def test_the_payloads_do_run_when_unpickled(tmp_path):
    """Sanity check of the test itself: each crafted file runs its payload when loaded unsafely."""
    marker = tmp_path / "ran"
    pickle.loads(crafted_pickle(marker))
    assert marker.exists()
    marker.unlink()
    torch.load(io.BytesIO(crafted_torch_file(marker)), weights_only=False)
    assert marker.exists()
    marker.unlink()
    with numpy.load(io.BytesIO(crafted_npz(marker, ["data"])), allow_pickle=True) as archive:
        archive["data"]
    assert marker.exists()


@pytest.mark.parametrize("kind", list(CRAFTED))
def test_a_crafted_pickle_in_place_of_any_linker_file_is_refused(rel_linker_dirs, tmp_path, kind):
    """A pickle at encoder.safetensors, names.ann, tfidf.npz ... (every file of the directory in turn)."""
    saved = rel_linker_dirs["uniprot"]
    marker = tmp_path / "payload_ran"
    payload = CRAFTED[kind](marker)
    for path in sorted(p for p in saved.iterdir() if p.is_file()):
        directory = Path(shutil.copytree(saved, tmp_path / f"{kind}_{path.name}"))
        (directory / path.name).write_bytes(payload)
        with pytest.raises(ArtifactError) as err, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            KnowledgeBaseLinker.from_disk(directory)
        assert not marker.exists(), f"loading a pickle at {path.name} ran it"
        assert path.name in str(err.value), str(err.value)


def test_crafted_npz_files_with_object_arrays_are_refused(rel_linker_dirs, tmp_path):
    """An .npz with the right array names whose first array is pickled objects (tfidf.npz, lookup.npz)."""
    saved = rel_linker_dirs["uniprot"]
    marker = tmp_path / "payload_ran"
    for path in sorted(saved.glob("*.npz")):
        with zipfile.ZipFile(path) as archive:
            names = [name[:-4] for name in archive.namelist()]
        directory = Path(shutil.copytree(saved, tmp_path / path.name))
        (directory / path.name).write_bytes(crafted_npz(marker, names))
        with pytest.raises(ArtifactError) as err:
            KnowledgeBaseLinker.from_disk(directory)
        assert not marker.exists(), f"loading {path.name} ran the pickled payload"
        assert err.value.path.name == path.name


def test_spacy_load_refuses_a_pickle_at_the_weights(rel_linker_dirs, tmp_path):
    linkers = {kb: KnowledgeBaseLinker.from_disk(path) for kb, path in rel_linker_dirs.items()}
    make_pipeline(linkers, with_ner=False).to_disk(tmp_path / "pipeline")
    marker = tmp_path / "payload_ran"
    weights = tmp_path / "pipeline" / "nseen_linker" / "kb_chebi" / "encoder.safetensors"
    weights.unlink()  # a new file: the one saved is mapped by nothing, but keep the habit of not overwriting in place
    weights.write_bytes(crafted_torch_file(marker))
    with pytest.raises(ArtifactError) as err:
        spacy.load(tmp_path / "pipeline")
    assert err.value.path == weights and not marker.exists()


def test_loading_and_linking_never_call_pickle(rel_linker_dirs, tmp_path, monkeypatch):
    """`spacy.load` of a saved pipeline and linking, with every unpickling entry point booby-trapped."""
    linkers = {kb: KnowledgeBaseLinker.from_disk(path) for kb, path in rel_linker_dirs.items()}
    make_pipeline(linkers, with_ner=False).to_disk(tmp_path / "pipeline")

    def refuse(*args, **kwargs):
        raise AssertionError("pickle was called on the load path")

    for name in ("load", "loads", "Unpickler"):
        monkeypatch.setattr(pickle, name, refuse)
    monkeypatch.setattr(torch, "load", refuse)
    nlp = spacy.load(tmp_path / "pipeline")
    doc = nlp.make_doc("PLCG2 and water")
    doc.ents = [spacy.tokens.Span(doc, 0, 1, label="PROTEIN"), spacy.tokens.Span(doc, 2, 3, label="CHEMICAL")]
    assert [ent.kb_id_ for ent in nlp.get_pipe("nseen_linker")(doc).ents] == ["UniProt:P16885", "CHEBI:15377"]
