"""Saving and loading an `nseen_linker`: its cfg, one linker directory per reference set, the cell-line table, the
abbreviation lexicon;
bytes (one msgpack blob of those files) and pickling (through the bytes: Annoy indexes cannot be pickled)."""

import tempfile
from functools import partial
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Union

import srsly
from spacy.util import from_disk as util_from_disk
from spacy.util import to_disk as util_to_disk

from ..errors import ArtifactError
from ..linker.kb_linker import load_linker
from ..linker.storage import save_linker
from ..organisms.cell_lines import CellLineTable
from ..text.abbreviation_lexicon import AbbreviationLexicon
from .article_context import ArticleCache

CELL_LINES_FILE = "cell_lines.json.gz"
ABBREVIATIONS_FILE = "abbreviations.json"
SAVE_AGAIN = "Save the pipeline again with nlp.to_disk()."
# What a pickled pipe leaves out of its __dict__ (restored from the bytes of its files).
UNPICKLED = ("linkers", "bytes_dir", "cell_lines", "organism_assigner", "abbreviation_lexicon", "article_cache")


def pipe_to_disk(pipe: Any, path: Union[str, Path], exclude: Iterable[str]) -> None:
    """Save the config and one linker directory per reference set."""
    serialize: Dict[str, Callable[[Path], None]] = {
        "cfg": lambda p: srsly.write_json(
            p, {"kbs": pipe.kbs, "kb_names": pipe.kb_names, "saved": [kb for kb in pipe.kb_names if kb in pipe.linkers]}
        ),
    }
    for kb in pipe.kb_names:
        if kb in pipe.linkers:
            serialize[f"kb_{kb}"] = partial(save_linker, pipe.linkers[kb])
    if pipe.cell_lines is not None:
        serialize[CELL_LINES_FILE] = lambda p: pipe.cell_lines.to_disk(p)
    if pipe.abbreviation_lexicon is not None:
        serialize[ABBREVIATIONS_FILE] = lambda p: pipe.abbreviation_lexicon.to_disk(p)
    util_to_disk(Path(path), serialize, exclude)


def pipe_from_disk(pipe: Any, path: Union[str, Path], exclude: Iterable[str]) -> None:
    """Load what `pipe_to_disk` saved; every file is checked before the pipe is used."""
    path = Path(path)
    cfg_path = path / "cfg"
    if not cfg_path.exists():
        raise ArtifactError(cfg_path, "nseen_linker config file not found", SAVE_AGAIN)
    try:
        saved = srsly.read_json(cfg_path).get("saved", pipe.kb_names)
    except (ValueError, AttributeError) as err:
        raise ArtifactError(cfg_path, f"not a valid nseen_linker config ({err})", SAVE_AGAIN) from None
    deserialize: Dict[str, Callable[[Path], None]] = {"cfg": lambda p: None}
    # A pipe saved before it was initialised has no linker directories, and loads uninitialised.
    for kb in (kb for kb in pipe.kb_names if kb in saved):
        deserialize[f"kb_{kb}"] = partial(load_kb, pipe, kb)
    if (path / CELL_LINES_FILE).exists() and CELL_LINES_FILE not in exclude:
        pipe.cell_lines = CellLineTable.from_disk(path / CELL_LINES_FILE)
    if (path / ABBREVIATIONS_FILE).exists() and ABBREVIATIONS_FILE not in exclude:
        pipe.abbreviation_lexicon = AbbreviationLexicon.from_disk(path / ABBREVIATIONS_FILE)
    pipe.organism_assigner = pipe.make_assigner()
    util_from_disk(path, deserialize, exclude)


def load_kb(pipe: Any, kb: str, directory: Path) -> None:
    """Load the saved linker directory of one reference set into the pipe, with the pipe's settings for `kb` (the
    one source of truth)."""
    if not directory.exists():
        raise ArtifactError(directory, f"the linker directory of '{kb}' is missing", SAVE_AGAIN)
    pipe.linkers[kb] = load_linker(
        directory, encoder=pipe.model.copy(), settings=pipe.settings_for(kb), search_k=pipe.search_k, require_prior=True
    )


def pipe_to_bytes(pipe: Any, exclude: Iterable[str]) -> bytes:
    """Serialise every file of `pipe_to_disk` into one msgpack blob."""
    with tempfile.TemporaryDirectory() as tmp:
        pipe.to_disk(tmp, exclude=exclude)
        root = Path(tmp)
        files = {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    return srsly.msgpack_dumps({"files": files})


def pipe_from_bytes(pipe: Any, bytes_data: bytes, exclude: Iterable[str]) -> None:
    """Restore from `pipe_to_bytes`; the files live in a temporary directory kept as long as the pipe."""
    data = srsly.msgpack_loads(bytes_data)
    if pipe.bytes_dir is not None:
        pipe.bytes_dir.cleanup()
    pipe.bytes_dir = tempfile.TemporaryDirectory(prefix="nseen_linker_")
    root = Path(pipe.bytes_dir.name)
    for rel, content in data["files"].items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    pipe.from_disk(root, exclude=exclude)


def pipe_state(pipe: Any) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): the pickled state: the pipe's attributes, its linkers as bytes."""
    state = {k: v for k, v in pipe.__dict__.items() if k not in UNPICKLED}
    state["_linker_bytes"] = pipe.to_bytes() if pipe.linkers else None
    return state


def restore_state(pipe: Any, state: Dict[str, Any]) -> None:
    """Set a pipe's state from `pipe_state`."""
    data = state.pop("_linker_bytes")
    pipe.__dict__.update(state)
    pipe.linkers = {}
    pipe.bytes_dir = None
    pipe.cell_lines = None
    pipe.abbreviation_lexicon = None
    pipe.organism_assigner = pipe.make_assigner()
    pipe.article_cache = ArticleCache()
    if data is not None:
        pipe.from_bytes(data)
