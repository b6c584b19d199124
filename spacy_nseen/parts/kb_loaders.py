"""Where a reference set's linker comes from at `initialize`: one registered loader per set, as spaCy's
`entity_linker` takes a `kb_loader`.

```ini
[initialize.components.nseen_linker.kb_loaders.uniprot]
@misc = "spacy_nseen.LinkerDirectory.v1"
path = "training_output/linkers/uniprot_multi"
nil_model = "training_output/nil/uniprot.json"

[initialize.components.nseen_linker.kb_loaders.cells]
@misc = "spacy_nseen.EncoderAndNames.v1"
encoder = "my_encoder"
reference_set = "cell_lines.tsv"
```

A loader is a callable `LoadRequest → KnowledgeBaseLinker`; register your own (a database, an object store) in
`@misc` and name it in the config. The component hands each loader its settings for the set, a fresh copy of its
encoder and its index settings, so that the component's config stays the one source of every setting.
"""

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Union

from spacy.util import registry
from thinc.api import Model

from ..encoder.weights_io import load_encoder_weights
from ..errors import ArtifactError
from ..linker.exact_ranking import read_entity_prior
from ..linker.kb_linker import KnowledgeBaseLinker, load_linker
from ..linker.nil_decision import NilModel
from ..linker.settings import IndexSettings, LinkerSettings
from ..linker.storage import ENTITY_PRIOR_FILE, META_FILE, check_prior, read_linker_meta
from ..reference.reference_set import ReferenceSet

PathLike = Union[str, Path]


@dataclass(frozen=True)
class LoadRequest:
    """What the component gives a loader for one reference set."""

    kb: str
    encoder: Model  # a fresh copy of the component's encoder (the loader sets its weights)
    settings: LinkerSettings  # the component's settings for this set: the ones that link
    index: IndexSettings


KbLoader = Callable[[LoadRequest], KnowledgeBaseLinker]
LINKER_DIRECTORY = "spacy_nseen.LinkerDirectory.v1"
ENCODER_AND_NAMES = "spacy_nseen.EncoderAndNames.v1"


@registry.misc(LINKER_DIRECTORY)
def linker_directory(
    path: PathLike, nil_model: Optional[PathLike] = None, entity_prior: Optional[str] = None
) -> KbLoader:
    """A loader of a complete linker directory (`build-kb`, the workflow's `build-*` steps).

    path: the linker directory (encoder weights, reference set, indexes).
    nil_model: a `nil_model.json` replacing the directory's own (e.g. one recalibrated by `tune_nil`).
    entity_prior: "FILE.tsv:COLUMN", the per-entity prior of `exact_tie_break = "prior"` (a TSV with a `kb_id`
        column, e.g. ChEBI's `star`); saved with the pipeline.
    """

    def load(request: LoadRequest) -> KnowledgeBaseLinker:
        directory = Path(path)
        if not directory.is_dir():
            raise ArtifactError(directory, f"the linker directory of '{request.kb}' is missing", _BUILD_ONE)
        warn_on_saved_settings(directory, request.kb, request.settings)
        linker = load_linker(
            directory,
            encoder=request.encoder,
            settings=request.settings,
            search_k=request.index.search_k,
            require_prior=False,
        )
        return _finish(linker, nil_model, entity_prior, directory / ENTITY_PRIOR_FILE)

    return load


@registry.misc(ENCODER_AND_NAMES)
def encoder_and_names(
    encoder: PathLike,
    reference_set: PathLike,
    nil_model: Optional[PathLike] = None,
    entity_prior: Optional[str] = None,
) -> KbLoader:
    """A loader that builds the linker at `initialize`: a trained encoder directory and a `kb_id, name, kind` TSV
    (the names are embedded and the indexes built, with the component's index settings)."""

    def load(request: LoadRequest) -> KnowledgeBaseLinker:
        load_encoder_weights(request.encoder, str(encoder))
        linker = KnowledgeBaseLinker.build(
            request.kb,
            request.encoder,
            ReferenceSet.from_tsv(str(reference_set)),
            n_trees=request.index.n_trees,
            search_k=request.index.search_k,
            seed=request.index.seed,
            settings=request.settings,
            with_tfidf=True,
            build_precision=request.index.build_precision,
        )
        return _finish(linker, nil_model, entity_prior, Path(f"kb_loaders.{request.kb}.entity_prior"))

    return load


def linker_directory_block(
    path: PathLike, nil_model: Optional[PathLike] = None, entity_prior: Optional[str] = None
) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): the config block of `linker_directory` (for `nlp.config["initialize"]`)."""
    block: Dict[str, Any] = {"@misc": LINKER_DIRECTORY, "path": str(path)}
    if nil_model:
        block["nil_model"] = str(nil_model)
    if entity_prior:
        block["entity_prior"] = entity_prior
    return block


def warn_on_saved_settings(directory: Path, kb: str, settings: LinkerSettings) -> None:
    """Name the settings a linker directory was saved with that differ from the component's (which are used)."""
    saved = LinkerSettings.from_dict(read_linker_meta(directory).get("settings", {}))
    differ = {k: v for k, v in saved.differences(settings).items() if k != "cache_size"}
    if differ:
        listed = ", ".join(f"{k}={mine!r} (component: {theirs!r})" for k, (mine, theirs) in differ.items())
        warnings.warn(
            f"nseen_linker: {directory / META_FILE} was saved with other settings for '{kb}': {listed}. "
            f"The component's settings are used; set them in the kbs.{kb}.ranker block to keep the saved ones.",
            stacklevel=4,
        )


def _finish(
    linker: KnowledgeBaseLinker, nil_model: Optional[PathLike], entity_prior: Optional[str], prior_source: Path
) -> KnowledgeBaseLinker:
    """Set the loader's NIL model and entity prior, then check that the settings have what they read."""
    if nil_model:
        linker.nil_model = NilModel.from_disk(str(nil_model))
    if entity_prior:
        prior_path, _, column = str(entity_prior).rpartition(":")
        if not prior_path or not column:
            raise ValueError(
                f"nseen_linker: entity_prior for '{linker.name}' must be 'FILE.tsv:COLUMN', got {entity_prior!r}"
            )
        linker.entity_prior = read_entity_prior(linker.reference_set, prior_path, column)
    check_prior(linker, prior_source)
    return linker


_BUILD_ONE = (
    "Give the path of a directory written by `spacy-nseen build-kb`, or load the set with "
    '@misc = "spacy_nseen.EncoderAndNames.v1" (an encoder and a names TSV).'
)
