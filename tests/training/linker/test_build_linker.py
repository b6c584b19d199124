import pytest

from spacy_nseen.linker.kb_linker import LinkerSettings
from training.linker.build_linker import linker_settings


def test_linker_settings_from_spec():
    assert linker_settings("") == LinkerSettings()
    tuned = linker_settings("exact_tie_break=names,exact_short_cut=false,fuzzy_weight=0.2,query_form=spelled_greek")
    assert tuned == LinkerSettings(exact_tie_break="names", exact_short_cut=False, fuzzy_weight=0.2,
                                   query_form="spelled_greek")
    with pytest.raises(ValueError, match="exact_tie_break"):
        linker_settings("exact_tie_break=popularity")
    with pytest.raises(AttributeError):
        linker_settings("no_such_setting=1")
