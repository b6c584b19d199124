"""Fixtures of the reliability suite (issue 7): a tiny encoder trained once per session, the two toy
linkers built from it, their saved directories, and pipelines over them.

The fixtures are named `rel_*` so they never shadow the module-test fixtures of `tests/conftest.py`;
helpers live in `rel_support.py`.
"""
from pathlib import Path
from typing import Dict

import pytest
from rel_support import TOY_CHEBI, TOY_REFERENCE, make_pipeline, train_tiny_encoder
from spacy.language import Language
from thinc.api import Model

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker, LinkerSettings
from spacy_nseen.reference.reference_set import ReferenceSet


@pytest.fixture(scope="session")
def rel_uniprot_reference() -> ReferenceSet:
    return ReferenceSet.from_tsv(TOY_REFERENCE)


@pytest.fixture(scope="session")
def rel_chebi_reference() -> ReferenceSet:
    return ReferenceSet.from_tsv(TOY_CHEBI)


@pytest.fixture(scope="session")
def rel_encoder(rel_uniprot_reference: ReferenceSet) -> Model:
    """The tiny encoder, trained for a few epochs on the toy UniProt set (shared by both linkers)."""
    return train_tiny_encoder(rel_uniprot_reference)


@pytest.fixture(scope="session")
def rel_linkers(rel_encoder: Model, rel_uniprot_reference: ReferenceSet, rel_chebi_reference: ReferenceSet) -> Dict[str, KnowledgeBaseLinker]:
    """The two toy linkers, without a result cache (so every call really links)."""
    settings = LinkerSettings(cache_size=0)
    return {
        "uniprot": KnowledgeBaseLinker.build("uniprot", rel_encoder, rel_uniprot_reference, n_trees=10, settings=settings),
        "chebi": KnowledgeBaseLinker.build("chebi", rel_encoder, rel_chebi_reference, n_trees=10, settings=settings),
    }


@pytest.fixture(scope="session")
def rel_linker_dirs(tmp_path_factory, rel_linkers: Dict[str, KnowledgeBaseLinker]) -> Dict[str, Path]:
    """The two linkers saved with `to_disk`: {"uniprot": dir, "chebi": dir}. Tests must not change them."""
    root = tmp_path_factory.mktemp("rel_linkers")
    for kb, linker in rel_linkers.items():
        linker.to_disk(root / kb)
    return {kb: root / kb for kb in rel_linkers}


@pytest.fixture(scope="session")
def rel_nlp(rel_linkers: Dict[str, KnowledgeBaseLinker]) -> Language:
    """The full pipeline: tokenizer → whole-doc PROTEIN entity → nseen_linker."""
    return make_pipeline(rel_linkers, with_ner=True)


@pytest.fixture(scope="session")
def rel_linker_nlp(rel_linkers: Dict[str, KnowledgeBaseLinker]) -> Language:
    """A pipeline with the nseen_linker alone (docs and their entities are made by hand)."""
    return make_pipeline(rel_linkers, with_ner=False)

