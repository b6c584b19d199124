"""A trained linker directory on disk: encoder, reference set, Annoy index, TF-IDF matrix, settings.

Layout: `linker.json`, `encoder.safetensors`, `char_vocab.json`, `encoder.json`, `reference.tsv.gz`,
`names.ann` (+ `names.ann.json`, and `names.ann.rows.npz` where names share a stored vector: see
`retrieval.shared_vectors`), `tfidf.npz` (optional), `lookup.npz` (optional), `nil_model.json` (optional,
see `nil_decision`), `xrefs.npz` (optional, see `xref_table`; directories saved before it have `xrefs.tsv.gz`,
which loads slowly, with a warning), `entity_prior.npz` (optional: the per-entity prior of
`exact_tie_break="prior"`). Nothing is unpickled on load.

The settings in `linker.json` are a record of those the linker was saved with, and the settings of a linker
loaded on its own (`KnowledgeBaseLinker.from_disk`). In a pipeline the component's config is the one source of
truth: `load_linker(settings=...)` is given them, and the saved ones are not read.

`lookup.npz` holds the reference set as flat arrays and the exact-match keys as sorted hashes, so that
loading neither parses `reference.tsv.gz` nor normalises every name. A directory without it (written
before it existed) loads the slow way, with a warning; `names.ann` and `tfidf.npz` are memory-mapped.
"""

import json
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, Union

import numpy
from thinc.api import Model

from ..about import ARTIFACT_FORMAT_VERSION, __version__
from ..encoder.weights_io import build_encoder_from_disk, load_encoder_weights, save_encoder
from ..errors import ArtifactError
from ..reference.reference_set import ReferenceSet
from ..reference.xref_table import XREF_TABLE_FILE, load_xref_table, save_xref_table
from ..reference.xrefs import XREFS_FILE, read_xrefs
from ..retrieval.array_io import load_npz, save_npz
from ..retrieval.char_tfidf import CharNgramTfidf
from ..retrieval.exact_names import ExactNameIndex
from ..retrieval.name_index import AnnoyNameIndex
from ..retrieval.page_advice import prefetch
from ..retrieval.word_tfidf import NameTokenIndex
from .added_names import names_metadata
from .added_names_file import ADDED_NAMES_FILE, load_added_vectors, save_added_vectors
from .linker_parts import LinkerParts
from .nil_decision import NIL_MODEL_FILE, NilModel
from .settings import LinkerSettings

META_FILE = "linker.json"
REFERENCE_FILE = "reference.tsv.gz"
INDEX_FILE = "names.ann"
TFIDF_FILE = "tfidf.npz"
TOKENS_FILE = "tokens.npz"
LOOKUP_FILE = "lookup.npz"
# The memory-mapped files queries read at random, smallest first: read into the page cache in the background at load.
PREFETCHED_FILES = (LOOKUP_FILE, TOKENS_FILE, TFIDF_FILE, INDEX_FILE)
LOOKUP_VERSION = 1
ENTITY_PRIOR_FILE = "entity_prior.npz"
RESAVE = "Save the linker again (nlp.to_disk or the project's index step), or copy its complete directory."


def save_linker(linker: LinkerParts, directory: Union[str, Path]) -> None:
    """Write every part of a linker into `directory` (created if needed)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    save_encoder(linker.encoder, directory)
    linker.reference_set.to_tsv(directory / REFERENCE_FILE)
    lookup = {f"reference_{key}": value for key, value in linker.reference_set.to_arrays().items()}
    lookup.update({f"exact_{key}": value for key, value in linker.exact_names.to_arrays().items()})
    lookup["lookup_version"] = numpy.asarray([LOOKUP_VERSION], dtype=numpy.int64)
    lookup["reference_file_size"] = numpy.asarray([(directory / REFERENCE_FILE).stat().st_size], dtype=numpy.int64)
    save_npz(directory / LOOKUP_FILE, lookup)
    linker.index.save(directory / INDEX_FILE)
    tokens_path = directory / TOKENS_FILE
    if linker.tokens is not None:
        linker.tokens.to_disk(tokens_path)
    elif tokens_path.exists():
        tokens_path.unlink()
    tfidf_path = directory / TFIDF_FILE
    if linker.tfidf is not None:
        linker.tfidf.to_disk(tfidf_path, rare_max_df=linker.settings.sparse_max_df)
    elif tfidf_path.exists():
        tfidf_path.unlink()
    nil_model, prior = linker.nil_model, linker.entity_prior
    writers: Dict[str, Optional[Callable[[Path], None]]] = {
        NIL_MODEL_FILE: None if nil_model is None else nil_model.to_disk,
        XREF_TABLE_FILE: (lambda p: save_xref_table(linker.xrefs, p)) if linker.xrefs else None,
        ENTITY_PRIOR_FILE: None if prior is None else (lambda p: save_entity_prior(prior, p)),
    }
    for filename, write in writers.items():
        if write is not None:
            write(directory / filename)
        elif (directory / filename).exists():
            (directory / filename).unlink()
    if (directory / XREFS_FILE).exists():  # the TSV of a directory saved before xrefs.npz
        (directory / XREFS_FILE).unlink()
    added = linker.index.added
    for sparse in (linker.tfidf, linker.tokens):
        n_sparse = 0 if sparse is None or sparse.added is None else len(sparse.added)
        if sparse is not None and n_sparse != (0 if added is None else len(added)):
            raise ValueError(f"'{linker.name}': the sparse index holds {n_sparse} added names, the dense search not")
    if added is not None:
        save_added_vectors(directory / ADDED_NAMES_FILE, added)
    elif (directory / ADDED_NAMES_FILE).exists():
        (directory / ADDED_NAMES_FILE).unlink()
    meta = {
        "format_version": ARTIFACT_FORMAT_VERSION,
        "spacy_nseen_version": __version__,
        "name": linker.name,
        "n_names": len(linker.reference_set),
        "n_entities": linker.reference_set.n_entities,
        "has_tfidf": linker.tfidf is not None,
        "has_tokens": linker.tokens is not None,
        "settings": linker.settings.to_dict(),
    }
    if added is not None:
        meta["added_names"] = {"file": ADDED_NAMES_FILE, "first_row": added.first_row, "n_names": len(added)}
    discovered = names_metadata(linker.reference_set.kinds, linker.name_sources, 0 if added is None else len(added))
    if discovered["n_names"] or discovered["sources"]:
        meta["discovered_names"] = discovered
    (directory / META_FILE).write_text(json.dumps(meta, indent=2), encoding="utf8")


def read_linker_meta(directory: Union[str, Path]) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): the contents of `linker.json`, validated."""
    path = Path(directory) / META_FILE
    if not Path(directory).is_dir():
        raise ArtifactError(directory, "linker directory not found", RESAVE)
    if not path.exists():
        raise ArtifactError(path, "linker metadata file not found", RESAVE)
    try:
        meta = json.loads(path.read_text(encoding="utf8"))
        version = meta["format_version"]
        int(meta["n_names"]), str(meta["name"])
    except (ValueError, KeyError, TypeError) as err:
        raise ArtifactError(path, f"not valid linker metadata ({err})", RESAVE) from None
    if version != ARTIFACT_FORMAT_VERSION:
        raise ArtifactError(
            path, f"artifact format {version}, this spacy_nseen reads {ARTIFACT_FORMAT_VERSION}", RESAVE
        )
    return meta


def read_linker_parts(
    directory: Union[str, Path],
    encoder: Optional[Model] = None,
    settings: Optional[LinkerSettings] = None,
    search_k: Optional[int] = None,
    with_nil_model: bool = True,
) -> Dict[str, Any]:
    """Read every part of a linker directory, checking every file before the first mention is linked
    (`kb_linker.load_linker` makes the linker of them).

    encoder (Optional[Model]): a configured encoder layer to load the weights into; if None, one is built
        from the saved `encoder.json`.
    settings (Optional[LinkerSettings]): search settings; default: those saved.
    search_k (Optional[int]): Annoy search_k; default: the saved value.
    with_nil_model (bool): read `nil_model.json` (False: leave it unread, e.g. to train a new one over an old one).
    RETURNS (Dict[str, Any]): the `KnowledgeBaseLinker` arguments, and `nil_model`, `xrefs`, `entity_prior`.
    """
    directory = Path(directory)
    meta = read_linker_meta(directory)
    prefetch(directory / name for name in PREFETCHED_FILES)  # read ahead while loading (page_advice)
    if encoder is None:
        encoder = build_encoder_from_disk(directory)
    else:
        load_encoder_weights(encoder, directory)
    reference, exact_names = _read_lookup(directory, int(meta["n_names"]))
    if reference is None:
        reference = ReferenceSet.from_tsv(directory / REFERENCE_FILE)
    if len(reference) != int(meta["n_names"]):
        raise ArtifactError(
            directory / REFERENCE_FILE, f"has {len(reference)} names, {META_FILE} says {meta['n_names']}", RESAVE
        )
    n_added = _n_added(meta, directory)
    n_built = len(reference) - n_added
    index = AnnoyNameIndex.load(directory / INDEX_FILE, dim=encoder.get_dim("nO"), n_items=n_built, search_k=search_k)
    tfidf = None
    if meta.get("has_tfidf"):
        tfidf = CharNgramTfidf.from_disk(directory / TFIDF_FILE, mmap=True)
        if tfidf.n_names != n_built:
            raise ArtifactError(
                directory / TFIDF_FILE, f"has {tfidf.n_names} rows, the reference set {n_built}", RESAVE
            )
    settings = settings or LinkerSettings.from_dict(meta.get("settings", {}))
    tokens = None
    if meta.get("has_tokens"):
        tokens = NameTokenIndex.from_disk(directory / TOKENS_FILE)
        if tokens.n_names != n_built:
            raise ArtifactError(
                directory / TOKENS_FILE, f"has {tokens.n_names} rows, the reference set {n_built}", RESAVE
            )
    if n_added:
        # the names added after the build: their saved vectors, their TF-IDF rows made again (added_names_file)
        vectors = load_added_vectors(directory / ADDED_NAMES_FILE, n_built, n_added, encoder.get_dim("nO"))
        added_names = [reference.names[row] for row in range(n_built, len(reference))]
        index = index.with_added(vectors)
        tfidf = None if tfidf is None else tfidf.with_added_names(added_names)
        tokens = None if tokens is None else tokens.with_added_names(added_names)
    parts: Dict[str, Any] = {
        "name": str(meta["name"]),
        "encoder": encoder,
        "reference_set": reference,
        "index": index,
        "tfidf": tfidf,
        "settings": settings,
        "exact_names": exact_names,
        "tokens": tokens,
        "nil_model": None,
        "xrefs": {},
        "entity_prior": None,
        "name_sources": _name_sources(meta, directory),
    }
    if with_nil_model and (directory / NIL_MODEL_FILE).exists():
        parts["nil_model"] = NilModel.from_disk(directory / NIL_MODEL_FILE)
    parts["xrefs"] = _read_xrefs(directory)
    if (directory / ENTITY_PRIOR_FILE).exists():
        parts["entity_prior"] = load_entity_prior(directory / ENTITY_PRIOR_FILE, reference.n_entities)
    return parts


def _n_added(meta: Mapping[str, Any], directory: Path) -> int:
    """RETURNS (int): the names added after the build, as `linker.json` says (0 when it says none)."""
    added = meta.get("added_names")
    if not added:
        return 0
    try:
        n_added, first_row = int(added["n_names"]), int(added["first_row"])
    except (KeyError, TypeError, ValueError) as err:
        raise ArtifactError(directory / META_FILE, f"its added_names entry is not valid ({err})", RESAVE) from None
    if n_added < 0 or first_row + n_added != int(meta["n_names"]):
        raise ArtifactError(
            directory / META_FILE, f"says {n_added} added names from row {first_row} of {meta['n_names']}", RESAVE
        )
    return n_added


def _name_sources(meta: Mapping[str, Any], directory: Path) -> Dict[str, int]:
    """RETURNS (Dict[str, int]): the sources of the linker's discovered names (`linker.json`), or {}."""
    sources = (meta.get("discovered_names") or {}).get("sources", {})
    try:
        return {str(source): int(count) for source, count in sources.items()}
    except (AttributeError, TypeError, ValueError) as err:
        raise ArtifactError(directory / META_FILE, f"its discovered_names entry is not valid ({err})", RESAVE) from None


def _read_xrefs(directory: Path) -> Mapping[str, Dict[str, str]]:
    """RETURNS (Mapping[str, Dict[str, str]]): the saved cross-references (`xrefs.npz`, or the TSV of an older
    directory, with a warning), or {}."""
    if (directory / XREF_TABLE_FILE).exists():
        return load_xref_table(directory / XREF_TABLE_FILE)
    if (directory / XREFS_FILE).exists():
        warnings.warn(
            f"{directory} has {XREFS_FILE} but no {XREF_TABLE_FILE}: loading is slow (the TSV is parsed). "
            f"Save the linker again to write it.",
            stacklevel=4,
        )
        return read_xrefs(directory / XREFS_FILE)
    return {}


def save_entity_prior(prior: numpy.ndarray, path: Union[str, Path]) -> None:
    """Write the per-entity prior of `exact_tie_break="prior"` (float64, one value per entity)."""
    save_npz(path, {"prior": numpy.asarray(prior, dtype=numpy.float64)})


def load_entity_prior(path: Union[str, Path], n_entities: int) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): the saved per-entity prior, checked against the number of entities."""
    try:
        prior = numpy.array(load_npz(path, mmap=False)["prior"], dtype=numpy.float64)
    except Exception as err:  # zipfile.BadZipFile, KeyError, ValueError, OSError
        raise ArtifactError(path, f"cannot be read ({type(err).__name__}: {err})", RESAVE) from None
    if prior.shape != (n_entities,):
        raise ArtifactError(path, f"holds {prior.shape} values for {n_entities} entities", RESAVE)
    return prior


def check_prior(linker: LinkerParts, path: Union[str, Path]) -> None:
    """Fail at load, not at the first link, when `exact_tie_break="prior"` has no prior to read."""
    if linker.settings.exact_tie_break == "prior" and linker.entity_prior is None:
        raise ArtifactError(
            path,
            f"exact_tie_break='prior' for '{linker.name}' needs the entity prior, and the linker has none",
            'Give it at initialize (kb_loaders.KB.entity_prior = "FILE.tsv:COLUMN") or set '
            "KnowledgeBaseLinker.entity_prior, then save the linker again; or choose another exact_tie_break.",
        )


def _read_lookup(directory: Path, n_names: int) -> Tuple[Optional[ReferenceSet], Optional[ExactNameIndex]]:
    """Read `lookup.npz`; (None, None) if the directory has none (an older layout, loaded the slow way)."""
    path = directory / LOOKUP_FILE
    if not path.exists():
        warnings.warn(
            f"{directory} has no {LOOKUP_FILE}: loading is slow (the reference TSV is parsed and every "
            f"name normalised). Save the linker again to write it.",
            stacklevel=3,
        )
        return None, None
    try:
        arrays = load_npz(path, mmap=True)
        version = int(arrays["lookup_version"][0])
        reference_size = int(arrays["reference_file_size"][0])
    except Exception as err:  # zipfile.BadZipFile, KeyError, ValueError, OSError
        raise ArtifactError(path, f"cannot be read ({type(err).__name__}: {err})", RESAVE) from None
    if version != LOOKUP_VERSION:
        raise ArtifactError(path, f"look-up format {version}, this spacy_nseen reads {LOOKUP_VERSION}", RESAVE)
    reference_path = directory / REFERENCE_FILE
    if reference_path.exists() and reference_path.stat().st_size != reference_size:
        warnings.warn(
            f"{path} was written with another {REFERENCE_FILE} (its size differs): ignored, the reference "
            f"TSV is read instead. Save the linker again to load it faster.",
            stacklevel=3,
        )
        return None, None
    try:
        reference = ReferenceSet.from_arrays(
            {k[len("reference_") :]: v for k, v in arrays.items() if k.startswith("reference_")}
        )
        exact_names = ExactNameIndex.from_arrays(
            reference.names, {k[len("exact_") :]: v for k, v in arrays.items() if k.startswith("exact_")}
        )
    except (KeyError, ValueError, UnicodeDecodeError) as err:
        raise ArtifactError(path, f"is not a valid look-up file ({type(err).__name__}: {err})", RESAVE) from None
    if len(reference) != n_names or len(exact_names.strict[0]) != n_names:
        raise ArtifactError(path, f"has {len(reference)} names, {META_FILE} says {n_names}", RESAVE)
    return reference, exact_names
