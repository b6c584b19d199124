"""The `nseen_linker` factory's default config: ten settings, the swappable parts as registered blocks
(`spacy_nseen.parts`), each filled with its function's defaults when a pipeline's config is filled."""
from typing import Any, Dict

from thinc.api import Config

from ..parts.decision import NIL_DECISION
from ..parts.index import ANNOY_INDEX
from ..parts.organisms import ORGANISM_ASSIGNER
from ..parts.ranker import HYBRID
from ..parts.scorer import LINKER_SCORER

DEFAULT_ENCODER_CONFIG = """
[encoder]
@architectures = "spacy_nseen.CharBiLSTMEncoder.v1"
vocab_size = 512
char_width = 64
hidden_width = 128
depth = 4
output_width = 128
dropout = 0.0
pooling = "max"
max_length = 64
batch_size = 128
precision = "fp32"
"""
DEFAULT_ENCODER = Config().from_str(DEFAULT_ENCODER_CONFIG)["encoder"]


def default_config() -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): the factory's default config. `kbs` is empty: spaCy merges a user's dict into the
    default one, so a non-empty default would add reference sets the user did not ask for."""
    return {
        "encoder": DEFAULT_ENCODER,
        "kbs": {},
        "ranker": {"@misc": HYBRID},
        "index": {"@misc": ANNOY_INDEX},
        "organisms": {"@misc": ORGANISM_ASSIGNER},
        "decision": {"@misc": NIL_DECISION},
        "scorer": {"@scorers": LINKER_SCORER},
        "top_k": 5,
        "overwrite": True,
        "batch_size": 256,
    }
