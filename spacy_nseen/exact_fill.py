"""Cheap searches for ranks 2..k of a mention that matches reference names exactly (`exact_fill`).

Such a mention skips the encoder and Annoy (the exact short-cut); its other candidates come from the
posting lists of its rare terms only (character n-grams, words), which are short by definition.
"""
from typing import List, Union

import numpy
import scipy.sparse as sp

from .tf_matrix import TfMatrix

Postings = Union[sp.csr_matrix, TfMatrix]


def without_common_terms(queries: sp.csr_matrix, postings_t: Postings, max_count: int) -> sp.csr_matrix:
    """The query rows without the terms found in more than `max_count` names, so that a search over the
    (terms × names) postings reads short posting lists only."""
    queries = queries.tocsr()
    keep = numpy.diff(postings_t.indptr)[queries.indices] <= max_count
    entry_rows = numpy.repeat(numpy.arange(queries.shape[0]), numpy.diff(queries.indptr))
    counts = numpy.bincount(entry_rows[keep], minlength=queries.shape[0])
    indptr = numpy.concatenate([[0], numpy.cumsum(counts)]).astype(numpy.int64)
    return sp.csr_matrix((queries.data[keep], queries.indices[keep], indptr), shape=queries.shape)


def number_variants(text: str) -> List[str]:
    """The other grammatical number of a mention ending in a lowercase word (`amino acids` → `amino acid`,
    `folate` → `folates`), by the S-stemmer rules of Harman (1991) and their inverse; [] for other mentions."""
    if len(text) < 4 or not text[-2:].isalpha() or not text[-2:].islower():
        return []
    if text.endswith("ies") and not text.endswith(("eies", "aies")):
        return [text[:-3] + "y"]
    if text.endswith("es") and not text.endswith(("aes", "ees", "oes")):
        return [text[:-1]]
    if text.endswith("s"):
        return [] if text.endswith(("us", "ss")) else [text[:-1]]
    return [text[:-1] + "ies" if text.endswith("y") and text[-2] not in "aeiou" else text + "s"]
