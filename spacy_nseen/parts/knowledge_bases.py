"""The reference sets of a linker: one block per set (`[components.nseen_linker.kbs.uniprot]`).

    [components.nseen_linker.kbs.uniprot]
    labels = ["PROTEIN", "GENE"]          # the entity labels linked to this set
    url_template = "https://identifiers.org/{}"   # the entry page of an id (displaCy, the service)
    primary_xref = {"GENE": "NCBIGene"}   # GENE entities get the NCBI Gene id as `kb_id` (their UniProt id stays
                                          # in `kb_candidates`); other labels their UniProt id

    [components.nseen_linker.kbs.uniprot.ranker]   # optional: this set's own ranker (else the component's)
    @misc = "spacy_nseen.HybridRanker.v1"
    exact_tie_break = "names"

A set may also have its own `decision` block. From Python: `{"kbs": {"uniprot": {"labels": ["PROTEIN"]}}}`.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional, Tuple

from .decision import LinkDecision
from .ranker import Ranker

URL_TEMPLATE = "https://identifiers.org/{}"
KEYS = ("labels", "url_template", "primary_xref", "ranker", "decision")
NO_KBS = (
    'nseen_linker: \'kbs\' names no reference set. Configure it, e.g. nlp.add_pipe("nseen_linker", config={"kbs": '
    '{"uniprot": {"labels": ["PROTEIN", "GENE"]}, "chebi": {"labels": ["CHEMICAL"]}}})'
)


@dataclass(frozen=True)
class KnowledgeBaseBlock:
    """One reference set of the linker.

    labels (Tuple[str, ...]): the entity labels whose spans are linked to it.
    url_template (str): the entry page of an id, with `{}` for the id.
    primary_xref (Dict[str, str]): label → the cross-reference database whose id is written as `kb_id` for
        entities of that label (where the linked entry has one), e.g. {"GENE": "NCBIGene"}.
    ranker (Optional[Ranker]): its own ranker (None: the component's).
    decision (Optional[LinkDecision]): its own decision (None: the component's).
    """

    labels: Tuple[str, ...]
    url_template: str = URL_TEMPLATE
    primary_xref: Mapping[str, str] = field(default_factory=dict)
    ranker: Optional[Ranker] = None
    decision: Optional[LinkDecision] = None


def read_kbs(kbs: Mapping[str, Any]) -> Dict[str, KnowledgeBaseBlock]:
    """RETURNS (Dict[str, KnowledgeBaseBlock]): the `kbs` config blocks, checked (errors name the key)."""
    out: Dict[str, KnowledgeBaseBlock] = {}
    owner: Dict[str, str] = {}
    for kb, block in kbs.items():
        where = f"nseen_linker: kbs.{kb}"
        if isinstance(block, KnowledgeBaseBlock):
            out[kb] = block
        elif isinstance(block, str):
            raise ValueError(
                f"{where} = {block!r}: kbs is 0.1.0's {{label: set}} map; give one block per set, e.g. "
                '{"uniprot": {"labels": ["PROTEIN", "GENE"]}} (`spacy-nseen upgrade-config` rewrites a saved '
                "pipeline's config)"
            )
        elif not isinstance(block, Mapping):
            raise ValueError(f"{where} must be a block with 'labels', got {block!r}")
        else:
            unknown = sorted(set(block) - set(KEYS))
            if unknown:
                raise ValueError(f"{where} has unknown keys {unknown}; known: {list(KEYS)}")
            labels = block.get("labels")
            if not isinstance(labels, (list, tuple)) or not labels or not all(isinstance(x, str) and x for x in labels):
                raise ValueError(f"{where}.labels must be a non-empty list of entity labels, got {labels!r}")
            template = block.get("url_template", URL_TEMPLATE)
            if not isinstance(template, str) or "{}" not in template:
                raise ValueError(f"{where}.url_template must contain '{{}}' for the id, got {template!r}")
            xref = block.get("primary_xref") or {}
            if not isinstance(xref, Mapping) or not all(isinstance(v, str) for v in xref.values()):
                raise ValueError(
                    f'{where}.primary_xref must map labels to databases, e.g. {{"GENE": "NCBIGene"}}, got {xref!r}'
                )
            stray = sorted(set(xref) - set(labels))
            if stray:
                raise ValueError(f"{where}.primary_xref names {stray}, not labels of this set ({list(labels)})")
            ranker, decision = block.get("ranker"), block.get("decision")
            if ranker is not None and not isinstance(ranker, Ranker):
                raise ValueError(
                    f'{where}.ranker must be a registered ranker block (@misc = "spacy_nseen.HybridRanker.v1" '
                    f"or your own), got {ranker!r}"
                )
            if decision is not None and not isinstance(decision, LinkDecision):
                raise ValueError(
                    f'{where}.decision must be a registered decision block (@misc = "spacy_nseen.NilDecision.v1" '
                    f"or your own), got {decision!r}"
                )
            out[kb] = KnowledgeBaseBlock(tuple(labels), template, dict(xref), ranker, decision)
        for label in out[kb].labels:
            if label in owner:
                raise ValueError(f"{where}: the label {label!r} is already linked to '{owner[label]}'")
            owner[label] = kb
    return out


def label_blocks(label_kbs: Mapping[str, str]) -> Dict[str, Dict[str, Any]]:
    """RETURNS (Dict[str, Dict[str, Any]]): `kbs` blocks for a `{label: set}` map, e.g. {"PROTEIN": "uniprot",
    "GENE": "uniprot"} → {"uniprot": {"labels": ["PROTEIN", "GENE"]}} (a label mapped to "" is left out)."""
    out: Dict[str, Dict[str, Any]] = {}
    for label, kb in label_kbs.items():
        if kb:
            out.setdefault(kb, {"labels": []})["labels"].append(label)
    return out
