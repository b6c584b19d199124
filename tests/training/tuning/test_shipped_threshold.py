"""The packaged pipeline's threshold is the one `tune-nil` chose (its committed results), not a stale copy: the
config says `threshold = null`, so each linker takes its NIL model's threshold, which tune-nil writes."""
import json
from pathlib import Path

from thinc.api import Config

ROOT = Path(__file__).resolve().parents[3]


def test_the_pipeline_config_ships_the_tuned_threshold():
    tuned = json.loads((ROOT / "results" / "nil" / "metrics.json").read_text(encoding="utf8"))["threshold"]
    config = Config().from_disk(ROOT / "configs" / "pipeline.cfg", interpolate=False)
    threshold = config["components"]["nseen_linker"]["decision"]["threshold"]
    assert threshold is None or threshold == tuned, (
        "configs/pipeline.cfg's nseen_linker.decision.threshold differs from the threshold of the last tune-nil run "
        "(results/nil/metrics.json): set it to null (each NIL model's tuned threshold) or to the tuned value")

