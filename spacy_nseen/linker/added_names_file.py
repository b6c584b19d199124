"""The linker directory's `added_names.npz`: the encoder vectors of the names added after the build.

The names themselves are rows of the saved reference set (`reference.tsv.gz`, `lookup.npz`: the rows from
`first_row` on); their TF-IDF rows are made again from them at load (the built vocabulary and idf give the same
rows). Only their vectors are saved here, so loading encodes nothing and links as the saved linker did. `linker.json`
says how many added names there are (`added_names`); a missing, truncated or mismatched file is an ArtifactError
naming it. Nothing is unpickled.
"""

import zipfile
from pathlib import Path
from typing import Union

import numpy

from ..errors import ArtifactError
from ..retrieval.added_rows import AddedVectors
from ..retrieval.array_io import load_npz, save_npz

ADDED_NAMES_FILE = "added_names.npz"
FORMAT_VERSION = 1
SAVE_AGAIN = (
    "Copy the linker's complete directory again, or save the linker (or pipeline) again from a copy that loads; "
    "without it, rebuild the linker and add the names again (spacy-nseen add-names)"
)


def save_added_vectors(path: Union[str, Path], added: AddedVectors) -> None:
    """Write the added names' vectors and the row of the first one."""
    save_npz(
        Path(path),
        {
            "format_version": numpy.asarray([FORMAT_VERSION], dtype=numpy.int64),
            "first_row": numpy.asarray([added.first_row], dtype=numpy.int64),
            "vectors": numpy.ascontiguousarray(added.vectors, dtype=numpy.float32),
        },
    )


def load_added_vectors(path: Union[str, Path], first_row: int, n_added: int, dim: int) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): float32 (n_added, dim), the saved vectors, checked against what `linker.json` says
    (the first added row, their number) and the encoder's width."""
    path = Path(path)
    if not path.exists():
        raise ArtifactError(path, f"not found: the linker has {n_added} added names whose vectors it holds", SAVE_AGAIN)
    try:
        arrays = load_npz(path, mmap=False)
        version = int(arrays["format_version"][0])
        saved_first = int(arrays["first_row"][0])
        vectors = numpy.array(arrays["vectors"], dtype=numpy.float32)
    except (OSError, ValueError, KeyError, IndexError, EOFError, zipfile.BadZipFile) as err:
        raise ArtifactError(
            path, f"cannot be read ({type(err).__name__}: {err}); it is truncated", SAVE_AGAIN
        ) from None
    if version != FORMAT_VERSION:
        raise ArtifactError(path, f"added-names format {version}, this spacy_nseen reads {FORMAT_VERSION}", SAVE_AGAIN)
    if saved_first != first_row or vectors.shape != (n_added, dim):
        raise ArtifactError(
            path,
            f"holds {vectors.shape} vectors from row {saved_first}; linker.json says {n_added} names of width {dim} "
            f"from row {first_row}",
            SAVE_AGAIN,
        )
    if not numpy.isfinite(vectors).all():
        raise ArtifactError(path, "holds vectors that are not finite numbers (a damaged file)", SAVE_AGAIN)
    return vectors
