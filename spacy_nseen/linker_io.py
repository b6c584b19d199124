"""A trained linker directory on disk: encoder, reference set, Annoy index, TF-IDF matrix, settings.

Layout: `linker.json`, `encoder.safetensors`, `char_vocab.json`, `encoder.json`, `reference.tsv.gz`,
`names.ann` (+ `names.ann.json`), `tfidf.npz` (optional). Nothing is unpickled on load.
"""
import json
from pathlib import Path
from typing import Any, Dict, Optional, Union

from thinc.api import Model

from .about import ARTIFACT_FORMAT_VERSION, __version__
from .encoder_io import build_encoder_from_disk, load_encoder_weights, save_encoder
from .errors import ArtifactError
from .kb_linker import KnowledgeBaseLinker, LinkerSettings
from .name_index import AnnoyNameIndex
from .ngram_tfidf import CharNgramTfidf
from .reference_set import ReferenceSet

META_FILE = "linker.json"
REFERENCE_FILE = "reference.tsv.gz"
INDEX_FILE = "names.ann"
TFIDF_FILE = "tfidf.npz"
RESAVE = "Save the linker again (nlp.to_disk or the project's index step), or copy its complete directory."


def save_linker(linker: KnowledgeBaseLinker, directory: Union[str, Path]) -> None:
    """Write every part of a linker into `directory` (created if needed)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    save_encoder(linker.encoder, directory)
    linker.reference_set.to_tsv(directory / REFERENCE_FILE)
    linker.index.save(directory / INDEX_FILE)
    tfidf_path = directory / TFIDF_FILE
    if linker.tfidf is not None:
        linker.tfidf.to_disk(tfidf_path)
    elif tfidf_path.exists():
        tfidf_path.unlink()
    meta = {
        "format_version": ARTIFACT_FORMAT_VERSION,
        "spacy_nseen_version": __version__,
        "name": linker.name,
        "n_names": len(linker.reference_set),
        "n_entities": linker.reference_set.n_entities,
        "has_tfidf": linker.tfidf is not None,
        "settings": linker.settings.to_dict(),
    }
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
        raise ArtifactError(path, f"artifact format {version}, this spacy_nseen reads {ARTIFACT_FORMAT_VERSION}", RESAVE)
    return meta


def load_linker(
    directory: Union[str, Path],
    encoder: Optional[Model] = None,
    settings: Optional[LinkerSettings] = None,
    search_k: Optional[int] = None,
) -> KnowledgeBaseLinker:
    """Load a linker directory, checking every file before the first mention is linked.

    encoder (Optional[Model]): a configured encoder layer to load the weights into; if None, one is built
        from the saved `encoder.json`.
    settings (Optional[LinkerSettings]): search settings; default: those saved.
    search_k (Optional[int]): Annoy search_k; default: the saved value.
    """
    directory = Path(directory)
    meta = read_linker_meta(directory)
    if encoder is None:
        encoder = build_encoder_from_disk(directory)
    else:
        load_encoder_weights(encoder, directory)
    reference = ReferenceSet.from_tsv(directory / REFERENCE_FILE)
    if len(reference) != int(meta["n_names"]):
        raise ArtifactError(
            directory / REFERENCE_FILE, f"has {len(reference)} names, {META_FILE} says {meta['n_names']}", RESAVE
        )
    index = AnnoyNameIndex.load(directory / INDEX_FILE, dim=encoder.get_dim("nO"), n_items=len(reference), search_k=search_k)
    tfidf = None
    if meta.get("has_tfidf"):
        tfidf = CharNgramTfidf.from_disk(directory / TFIDF_FILE)
        if tfidf.n_names != len(reference):
            raise ArtifactError(directory / TFIDF_FILE, f"has {tfidf.n_names} rows, the reference set {len(reference)}", RESAVE)
    settings = settings or LinkerSettings.from_dict(meta.get("settings", {}))
    return KnowledgeBaseLinker(str(meta["name"]), encoder, reference, index, tfidf, settings)
