"""The packaged pipeline searches each reference set with the settings its linker was built and tuned with."""
from pathlib import Path

import srsly
from thinc.api import Config

from spacy_nseen.linker.settings import LinkerSettings
from training.linker.settings_spec import parse_variant

ROOT = Path(__file__).resolve().parents[3]


def _changes(spec: str) -> dict:
    """RETURNS (dict): the settings a project.yml spec (`key=value,...`) changes from the defaults, typed."""
    _, settings = parse_variant(f"project:{spec}", LinkerSettings())
    return {key: value for key, (value, _) in settings.differences(LinkerSettings()).items()}


def test_the_pipeline_configs_kb_settings_are_the_projects_linker_settings():
    variables = srsly.read_yaml(ROOT / "project.yml")["vars"]
    config = Config().from_disk(ROOT / "configs" / "pipeline.cfg", interpolate=False)
    kb_settings = config["components"]["nseen_linker"]["kb_settings"]
    assert _changes(variables["uniprot_multi_settings"]) == dict(kb_settings["uniprot"])
    assert _changes(variables["chebi_settings"]) == dict(kb_settings["chebi"])


def test_tag_names_are_never_linked_to_uniprot_and_may_be_to_chebi():
    config = Config().from_disk(ROOT / "configs" / "pipeline.cfg", interpolate=False)
    kb_settings = config["components"]["nseen_linker"]["kb_settings"]
    assert kb_settings["uniprot"]["link_tag_names"] is False  # `HA` is no Head activator
    assert kb_settings["chebi"].get("link_tag_names", True) is True  # `His` is histidine
