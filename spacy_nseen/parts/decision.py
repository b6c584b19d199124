"""The decision: whether a mention's best candidate is linked (`[components.nseen_linker.decision]`).

`spacy_nseen.NilDecision.v1` is the shipped one: the linker's NIL model (CoSiNES' "no entity fits" as a decision
of its own) gives the probability that the best entity is right, and the link is kept when it reaches
`threshold`; without a NIL model, the best candidate's fused score is compared instead. `threshold = null` (the
default) takes each linker's own: the threshold its NIL model was tuned or fitted with (`NilModel.threshold`; a
`build-kb` linker's is chosen on its knowledge base, `linker.kb_nil`), or 0 without a NIL model. A user's own decision
subclasses `LinkDecision` and is registered in `spacy.util.registry.misc`.
"""

from typing import Any, Dict, List, Optional, Sequence

from spacy.util import registry

from ..linker.candidate import Candidate
from ..linker.kb_linker import KnowledgeBaseLinker
from ..linker.settings import LinkerSettings
from ..linker.signals.base import Verdict
from ..organisms.ranking import OrganismContext

NIL_DECISION = "spacy_nseen.NilDecision.v1"


class LinkDecision:
    """Decides, per linked mention, the link's score and whether its best candidate is kept.

    threshold (Optional[float]): the score a kept link reaches (its `kb_score` is compared with it; above 1 nothing
        is kept); None: each linker's own (`threshold_for`).
    """

    def __init__(self, threshold: Optional[float] = 0.0) -> None:
        self.threshold = None if threshold is None else float(threshold)

    def threshold_for(self, linker: KnowledgeBaseLinker) -> float:
        """RETURNS (float): the threshold of a linker's links: `threshold`, or when None, the threshold of the
        linker's NIL model (0 without one, or with the NIL model off)."""
        if self.threshold is not None:
            return self.threshold
        model = linker.nil_model
        return float(model.threshold) if model is not None and linker.settings.nil_decision else 0.0

    def search_settings(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): the `LinkerSettings` fields the decision sets (read by the linker's ranking)."""
        return {}

    def verdicts(
        self,
        linker: KnowledgeBaseLinker,
        mentions: Sequence[str],
        results: Sequence[Sequence[Candidate]],
        contexts: Sequence[Optional[OrganismContext]],
    ) -> List[Verdict]:
        """RETURNS (List[Verdict]): per mention (as searched), the decision on its ranked candidates."""
        return linker.verdicts(mentions, results, contexts, self.threshold_for(linker))


class NilDecision(LinkDecision):
    """The NIL model's probability against a threshold (see the module doc).

    threshold (Optional[float]): the probability (or, without a NIL model, the fused score) a kept link reaches;
        None: the linker's NIL model's own threshold (0 without a NIL model).
    use_nil_model (bool): let the linker's NIL model give the probability (False: the best score decides).
    link_tag_names (bool): False: an epitope tag, reporter or group label (`HA`, `GFP`, `WT`) is never linked.
    link_case_mismatch (bool): False: a lower-case word is never linked exactly to an entity that has it only as a
        symbol in capitals (`simple` → SIMPLE; `text.case_forms`).
    """

    def __init__(
        self,
        threshold: Optional[float] = None,
        use_nil_model: bool = True,
        link_tag_names: bool = True,
        link_case_mismatch: bool = True,
    ) -> None:
        super().__init__(threshold)
        self.use_nil_model = use_nil_model
        self.link_tag_names = link_tag_names
        self.link_case_mismatch = link_case_mismatch

    def search_settings(self) -> Dict[str, Any]:
        return {
            "nil_decision": self.use_nil_model,
            "link_tag_names": self.link_tag_names,
            "link_case_mismatch": self.link_case_mismatch,
        }

    def threshold_for(self, linker: KnowledgeBaseLinker) -> float:
        if self.threshold is None and not self.use_nil_model:
            return 0.0  # the fused score decides, against 0
        return super().threshold_for(linker)

    def __repr__(self) -> str:
        return (
            f"NilDecision(threshold={self.threshold}, use_nil_model={self.use_nil_model}, "
            f"link_tag_names={self.link_tag_names}, link_case_mismatch={self.link_case_mismatch})"
        )


@registry.misc(NIL_DECISION)
def make_nil_decision(
    threshold: Optional[float] = None,
    use_nil_model: bool = LinkerSettings.nil_decision,
    link_tag_names: bool = LinkerSettings.link_tag_names,
    link_case_mismatch: bool = LinkerSettings.link_case_mismatch,
) -> LinkDecision:
    """The shipped decision (`NilDecision`)."""
    return NilDecision(threshold, use_nil_model, link_tag_names, link_case_mismatch)
