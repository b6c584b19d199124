"""The packaged pipeline searches each reference set with the settings its linker was built and tuned with."""
from pathlib import Path

import srsly

from spacy_nseen.component import NseenLinker
from training.linker.build_linker import linker_settings
from training.linker.settings_spec import linker_from_config

ROOT = Path(__file__).resolve().parents[3]


def shipped_linker() -> NseenLinker:
    """RETURNS (NseenLinker): the component configs/pipeline.cfg makes (uninitialised)."""
    return linker_from_config(ROOT / "configs" / "pipeline.cfg")


def test_the_linkers_are_built_with_the_pipeline_configs_settings_of_their_set():
    """project.yml's per-set settings name configs/pipeline.cfg's sets: one source for the linkers and the pipeline."""
    variables = srsly.read_yaml(ROOT / "project.yml")["vars"]
    pipe = shipped_linker()
    for name, kb in (("uniprot_multi_settings", "uniprot"), ("uniprot_hgnc_settings", "uniprot"), ("chebi_settings", "chebi")):
        assert variables[name] == f"configs/pipeline.cfg#{kb}"
        assert linker_settings(variables[name]) == pipe.settings_for(kb)
    assert pipe.settings_for("chebi") != pipe.settings_for("uniprot") != pipe.settings


def test_tag_names_are_never_linked_to_uniprot_and_may_be_to_chebi():
    pipe = shipped_linker()
    assert pipe.settings_for("uniprot").link_tag_names is False  # `HA` is no Head activator
    assert pipe.settings_for("chebi").link_tag_names is True  # `His` is histidine
    assert pipe.decision_for("uniprot").threshold == pipe.decision_for("chebi").threshold == pipe.threshold
