"""The organism assigner: which organism each protein mention is of (`[components.nseen_linker.organisms]`).

`spacy_nseen.OrganismAssigner.v1` reads the evidence a biologist reads (species words and cell lines near the
mention, in its sentence, caption, figure and article, and the mention's own form), each level weighted as in
`organisms.assign.AssignerSettings` (typed settings of this block, chosen on the even-numbered Bio-ID documents).
"""

from dataclasses import dataclass
from typing import List, Tuple, Union

from spacy.util import registry

from ..organisms.assign import DEFAULT_PRIOR, AssignerSettings

ORGANISM_ASSIGNER = "spacy_nseen.OrganismAssigner.v1"


@dataclass(frozen=True)
class OrganismPart:
    """Which organisms may be assigned, whether they are, and how.

    allowed (Tuple[int, ...]): NCBI taxon ids the assigner may choose from (empty: any of the reference set's).
    assign (bool): assign an organism to each mention (False: no organism evidence in the ranking).
    settings (AssignerSettings): the evidence weights.
    """

    allowed: Tuple[int, ...]
    assign: bool
    settings: AssignerSettings

    def __post_init__(self) -> None:
        if any(not isinstance(t, int) or isinstance(t, bool) or t <= 0 for t in self.allowed):
            raise ValueError(f"organisms: allowed must be NCBI taxon ids (positive integers), got {list(self.allowed)}")


@registry.misc(ORGANISM_ASSIGNER)
def make_organism_assigner(
    allowed: List[int] = [],  # noqa: B006 (a config default: never mutated)
    assign: bool = True,
    near_weight: float = AssignerSettings.near_weight,
    prefix_weight: float = AssignerSettings.prefix_weight,
    sentence_weight: float = AssignerSettings.sentence_weight,
    caption_weight: float = AssignerSettings.caption_weight,
    figure_weight: float = AssignerSettings.figure_weight,
    article_weight: float = AssignerSettings.article_weight,
    form_weight: float = AssignerSettings.form_weight,
    prior_weight: float = AssignerSettings.prior_weight,
    user_weight: float = AssignerSettings.user_weight,
    cell_line_strength: float = AssignerSettings.cell_line_strength,
    ambiguous_cell_line_strength: float = AssignerSettings.ambiguous_cell_line_strength,
    graft_host_strength: float = AssignerSettings.graft_host_strength,
    article_saturation: float = AssignerSettings.article_saturation,
    near_words: int = AssignerSettings.near_words,
    nearest_qualifier: bool = AssignerSettings.nearest_qualifier,
    max_evidence: int = AssignerSettings.max_evidence,
    prior: List[List[Union[int, float]]] = [[taxon, value] for taxon, value in DEFAULT_PRIOR],  # noqa: B006
) -> OrganismPart:
    """The shipped organism assigner (see `AssignerSettings` for each weight; `prior` is a list of
    [taxon, value] pairs, also the tie-break order)."""
    if any(len(pair) != 2 for pair in prior):
        raise ValueError(f"organisms: prior must be [taxon, value] pairs, got {prior}")
    weights = {
        "near_weight": near_weight,
        "prefix_weight": prefix_weight,
        "sentence_weight": sentence_weight,
        "caption_weight": caption_weight,
        "figure_weight": figure_weight,
        "article_weight": article_weight,
        "form_weight": form_weight,
        "prior_weight": prior_weight,
        "user_weight": user_weight,
        "cell_line_strength": cell_line_strength,
        "ambiguous_cell_line_strength": ambiguous_cell_line_strength,
        "graft_host_strength": graft_host_strength,
        "article_saturation": article_saturation,
        "near_words": near_words,
        "nearest_qualifier": nearest_qualifier,
        "max_evidence": max_evidence,
        "prior": prior,
    }
    try:
        settings = AssignerSettings.from_dict(weights)
    except (TypeError, ValueError) as err:
        raise ValueError(f"organisms: {err}") from None
    return OrganismPart(tuple(int(t) for t in allowed), assign, settings)
