"""The linker's settings: one source of names, types and defaults; errors that name the setting."""
import inspect

import pytest

from spacy_nseen.component import NseenLinker
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.linker.settings import (
    QUERY_FORMS,
    IndexSettings,
    LinkerSettings,
)
from spacy_nseen.parts.index import make_annoy_index
from spacy_nseen.retrieval.name_index import AnnoyNameIndex


@pytest.mark.parametrize("changes,name", [({"exact_tie_break": "x"}, "exact_tie_break"), ({"query_form": "x"}, "query_form"),
                                          ({"n_candidates": 0}, "n_candidates"), ({"token_weight": 0.99}, "token_weight"),
                                          ({"exact_tie_break": "random"}, "exact_tie_break")])
def test_bad_values_name_the_setting(changes, name):
    with pytest.raises(ValueError, match=f"^{name} must be"):
        LinkerSettings(**changes)


def test_enumerations_come_from_their_modules():
    from spacy_nseen.text import query_forms

    assert QUERY_FORMS == query_forms.QUERY_FORMS


def test_one_source_of_index_defaults():
    """n_trees and search_k: the component, the linker build and the Annoy index share IndexSettings' defaults."""
    defaults = IndexSettings()
    assert (defaults.n_trees, defaults.search_k) == (20, 500)
    build = inspect.signature(KnowledgeBaseLinker.build).parameters
    assert (build["n_trees"].default, build["search_k"].default, build["seed"].default) == (20, 500, 0)
    for method in (AnnoyNameIndex.__init__, AnnoyNameIndex.build):
        params = inspect.signature(method).parameters
        assert (params["n_trees"].default, params["search_k"].default) == (20, 500)
    component = inspect.signature(NseenLinker.__init__).parameters
    assert "search_k" not in component and component["index"].default is None  # the registered index's defaults
    assert make_annoy_index().settings == defaults
