"""The linker's settings: one source of names, types and defaults; errors that name the setting."""
import inspect
from dataclasses import fields

import pytest

from spacy_nseen.component import NseenLinker
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.linker.settings import (
    EXACT_FILLS,
    QUERY_FORMS,
    IndexSettings,
    KbSettings,
    LinkerSettings,
    with_changes,
)
from spacy_nseen.parts.index import make_annoy_index
from spacy_nseen.retrieval.name_index import AnnoyNameIndex


def test_kb_settings_has_every_linker_setting_optional():
    assert [f.name for f in fields(KbSettings)] == [f.name for f in fields(LinkerSettings)]
    assert all(f.default is None for f in fields(KbSettings))


def test_with_changes_applies_typed_or_dict_changes_and_names_the_place():
    base = LinkerSettings()
    assert with_changes(base, KbSettings(exact_fill="sparse"), "here").exact_fill == "sparse"
    assert with_changes(base, {"query_form": "spelled_greek"}, "here").query_form == "spelled_greek"
    assert with_changes(base, KbSettings(), "here") == base
    with pytest.raises(ValueError, match=r"kb_settings\['x'\] has unknown settings \['fuzzy_wieght'\]"):
        with_changes(base, {"fuzzy_wieght": 0.1}, "kb_settings['x']")
    with pytest.raises(ValueError, match=r"here: fuzzy_weight must be in \[0, 1 - sparse_weight\], got 2.0"):
        with_changes(base, {"fuzzy_weight": 2.0}, "here")


@pytest.mark.parametrize("changes,name", [({"exact_fill": "all"}, "exact_fill"), ({"query_form": "x"}, "query_form"),
                                          ({"n_candidates": 0}, "n_candidates"), ({"token_weight": 0.99}, "token_weight"),
                                          ({"exact_tie_break": "random"}, "exact_tie_break")])
def test_bad_values_name_the_setting(changes, name):
    with pytest.raises(ValueError, match=f"^{name} must be"):
        LinkerSettings(**changes)


def test_enumerations_come_from_their_modules():
    from spacy_nseen.text import query_forms

    assert QUERY_FORMS == query_forms.QUERY_FORMS and EXACT_FILLS == ("none", "char", "sparse")


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
