"""The `nseen_linker` factory's default config: ten settings, the swappable parts as registered blocks
(`spacy_nseen.parts`), each filled with its function's defaults when a pipeline's config is filled."""

from typing import Any, Dict

from ..encoder.layer import ARCHITECTURE, encoder_defaults
from ..parts.decision import NIL_DECISION
from ..parts.index import ANNOY_INDEX
from ..parts.organisms import ORGANISM_ASSIGNER
from ..parts.ranker import HYBRID
from ..parts.scorer import LINKER_SCORER

# The encoder block of the factory's default config: the registered architecture with its own defaults (one source).
DEFAULT_ENCODER: Dict[str, Any] = {"@architectures": ARCHITECTURE, **encoder_defaults()}


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
