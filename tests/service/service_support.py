"""What the service's tests share: the demo pipeline's place and a caption."""

import os
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[2]
# LC3 and p62: names the demo's small NER tags and its linker links right (its MDM2 and chloroquine stay unlinked)
CAPTION = "Western blot of p53 and MDM2 in mouse embryonic fibroblasts treated with chloroquine (CQ). LC3 and p62 rose."
NO_DEMO = "no demo pipeline: run `bash scripts/demo.sh` (.ci/run does) or set NSEEN_DEMO_PIPELINE"


def demo_pipeline() -> Optional[Path]:
    """RETURNS (Optional[Path]): The demo pipeline: NSEEN_DEMO_PIPELINE, else `training_output/demo/pipeline` of
    the checkout NSEEN_DEMO_RUN names or of this one; None when there is none."""
    named = os.environ.get("NSEEN_DEMO_PIPELINE")
    candidates = [Path(named)] if named else []
    candidates.append(Path(os.environ.get("NSEEN_DEMO_RUN", REPO)) / "training_output/demo/pipeline")
    return next((path for path in candidates if path.is_dir()), None)
