"""The frozen-transformer config: sourced, frozen, annotating; a config of another shape is an error."""
from pathlib import Path

import pytest
from thinc.api import Config

from experiments.frozen_transformer import frozen_config

ROOT = Path(__file__).resolve().parents[2]


def test_frozen_config_sources_and_freezes_the_transformer() -> None:
    text = frozen_config((ROOT / "configs" / "ner_trf.cfg").read_text(encoding="utf8"), "base")
    config = Config().from_str(text, interpolate=False)
    assert dict(config["components"]["transformer"]) == {"source": "base"}
    assert config["training"]["frozen_components"] == ["transformer"]
    assert config["training"]["annotating_components"] == ["name_features", "transformer"]
    assert config["components"]["ner"]["factory"] == "ner"


def test_a_config_without_the_transformer_block_is_an_error() -> None:
    with pytest.raises(ValueError, match="components.transformer"):
        frozen_config((ROOT / "configs" / "ner.cfg").read_text(encoding="utf8"), "base")
