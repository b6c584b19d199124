"""The packaged pipeline searches each reference set with the settings its linker was built and tuned with."""
from pathlib import Path

import spacy
import srsly
from thinc.api import Config

from spacy_nseen.component import NseenLinker
from spacy_nseen.linker.settings import LinkerSettings
from training.linker.settings_spec import parse_variant

ROOT = Path(__file__).resolve().parents[3]


def _changes(spec: str) -> dict:
    """RETURNS (dict): the settings a project.yml spec (`key=value,...`) changes from the defaults, typed."""
    _, settings = parse_variant(f"project:{spec}", LinkerSettings())
    return {key: value for key, (value, _) in settings.differences(LinkerSettings()).items()}


def shipped_linker() -> NseenLinker:
    """RETURNS (NseenLinker): the component configs/pipeline.cfg makes (uninitialised)."""
    block = dict(Config().from_disk(ROOT / "configs" / "pipeline.cfg")["components"]["nseen_linker"])
    block.pop("factory")
    return spacy.blank("en").add_pipe("nseen_linker", config=block)


def _differences(settings: LinkerSettings) -> dict:
    return {key: value for key, (value, _) in settings.differences(LinkerSettings()).items()}


def test_the_pipeline_configs_kb_settings_are_the_projects_linker_settings():
    variables = srsly.read_yaml(ROOT / "project.yml")["vars"]
    pipe = shipped_linker()
    assert _changes(variables["uniprot_multi_settings"]) == _differences(pipe.settings_for("uniprot"))
    assert _changes(variables["chebi_settings"]) == _differences(pipe.settings_for("chebi"))


def test_tag_names_are_never_linked_to_uniprot_and_may_be_to_chebi():
    pipe = shipped_linker()
    assert pipe.settings_for("uniprot").link_tag_names is False  # `HA` is no Head activator
    assert pipe.settings_for("chebi").link_tag_names is True  # `His` is histidine
    assert pipe.decision_for("uniprot").threshold == pipe.decision_for("chebi").threshold == pipe.threshold
