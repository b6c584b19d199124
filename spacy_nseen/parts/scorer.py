"""The scorer `nlp.evaluate` calls for the linker (`[components.nseen_linker.scorer]`)."""

from typing import Any, Callable, Dict, Iterable

from spacy.scorer import Scorer
from spacy.training import Example
from spacy.util import registry

LINKER_SCORER = "spacy_nseen.linker_scorer.v1"


def score_links(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): micro P/R/F of (span, kb_id) on the gold entities (spaCy's `Scorer.score_links`)."""
    return Scorer.score_links(examples, negative_labels=[""], **kwargs)


@registry.scorers(LINKER_SCORER)
def make_linker_scorer() -> Callable[..., Dict[str, Any]]:
    """The linker's scorer: `nel_micro_p`, `nel_micro_r`, `nel_micro_f` and per-label figures."""
    return score_links
