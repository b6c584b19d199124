"""The registered loaders of `[initialize.components.nseen_linker.kb_loaders]` (parts/kb_loaders.py)."""

import pytest
import spacy
from spacy.util import registry

from spacy_nseen.errors import ArtifactError
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker, load_linker
from spacy_nseen.parts.kb_loaders import LoadRequest, linker_directory, linker_directory_block
from spacy_nseen.parts.legacy import is_legacy_initialize, upgrade_initialize_block

WORDS = ["LC3", "and", "caffeine"]
ENTS = [(0, 1, "PROTEIN"), (2, 3, "CHEMICAL")]


def test_a_user_registered_loader_is_called_from_the_config_alone(make_nlp, make_doc, linker_dirs):
    """A loader of one's own (here: counting its calls) replaces the linker directory through the config."""
    calls = []

    @registry.misc("test.CountingLoader.v1")
    def counting_loader(path: str):
        def load(request: LoadRequest) -> KnowledgeBaseLinker:
            calls.append((request.kb, request.settings.n_candidates, request.index.search_k))
            return load_linker(path, encoder=request.encoder, settings=request.settings)

        return load

    nlp = make_nlp(initialize=False)
    nlp.config["initialize"]["components"]["nseen_linker"] = {
        "kb_loaders": {
            "uniprot": {"@misc": "test.CountingLoader.v1", "path": str(linker_dirs["uniprot"])},
            "chebi": linker_directory_block(linker_dirs["chebi"]),
        }
    }
    nlp.initialize()
    pipe = nlp.get_pipe("nseen_linker")
    assert [kb for kb, _, _ in calls] == ["uniprot"]
    assert calls[0][1:] == (pipe.settings_for("uniprot").n_candidates, pipe.search_k)  # the component's settings
    assert [e.kb_id_ for e in nlp(make_doc(nlp, WORDS, ENTS)).ents][1] == "CHEBI:27732"


def test_every_reference_set_needs_a_loader(make_nlp, linker_dirs):
    nlp = make_nlp(initialize=False)
    with pytest.raises(ValueError, match=r"no loader for the reference set\(s\) \['chebi'\].*kb_loaders.chebi"):
        nlp.get_pipe("nseen_linker").initialize(kb_loaders={"uniprot": linker_directory(linker_dirs["uniprot"])})


def test_a_missing_linker_directory_names_it(make_nlp, tmp_path, linker_dirs):
    nlp = make_nlp(initialize=False)
    loaders = {"uniprot": linker_directory(tmp_path / "nowhere"), "chebi": linker_directory(linker_dirs["chebi"])}
    with pytest.raises(ArtifactError, match="the linker directory of 'uniprot' is missing") as err:
        nlp.get_pipe("nseen_linker").initialize(kb_loaders=loaders)
    assert err.value.path == tmp_path / "nowhere"


def test_a_bad_entity_prior_spec_says_the_form(make_nlp, linker_dirs):
    nlp = make_nlp(initialize=False)
    loaders = {kb: linker_directory(linker_dirs[kb], entity_prior="stars.tsv") for kb in ("uniprot", "chebi")}
    with pytest.raises(ValueError, match="FILE.tsv:COLUMN"):
        nlp.get_pipe("nseen_linker").initialize(kb_loaders=loaders)


def test_the_0_1_0_path_maps_become_one_loader_per_set():
    old = {
        "cell_lines": "cells.json.gz",
        "linkers": {"uniprot": "linkers/uniprot"},
        "encoders": {"chebi": "enc"},
        "reference_sets": {"chebi": "chebi.tsv"},
        "nil_models": {"uniprot": "nil.json", "chebi": None},
        "entity_priors": {"chebi": "chebi.tsv:star"},
    }
    assert is_legacy_initialize(old)
    new = upgrade_initialize_block(old)
    assert not is_legacy_initialize(new)
    assert new == {
        "cell_lines": "cells.json.gz",
        "kb_loaders": {
            "uniprot": {"@misc": "spacy_nseen.LinkerDirectory.v1", "path": "linkers/uniprot", "nil_model": "nil.json"},
            "chebi": {
                "@misc": "spacy_nseen.EncoderAndNames.v1",
                "encoder": "enc",
                "reference_set": "chebi.tsv",
                "entity_prior": "chebi.tsv:star",
            },
        },
    }
    # the upgraded block resolves: every loader is a registered function with these fields
    resolved = spacy.util.registry.resolve({"kb_loaders": new["kb_loaders"]})
    assert set(resolved["kb_loaders"]) == {"uniprot", "chebi"}
