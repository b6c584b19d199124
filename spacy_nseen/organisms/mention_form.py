"""What the written form of a protein/gene mention says about its organism (weak evidence).

Nomenclature conventions: human symbols are all capitals (`TP53`), mouse and rat symbols capitalised
with the rest lower case (`Trp53`, `Foxp2`), yeast proteins `Cdc42p` and systematic ORFs `YBL078C`,
E. coli genes `recA` and proteins `RecA`. Many authors don't follow them (mouse papers write `AKT`),
so the assigner weighs this evidence low. Prefixes (`hTERT`) and reporter proteins (`EGFP`) are stronger:
they name the organism.
"""

import re
from dataclasses import dataclass
from typing import List

from .lexicon import (
    ARABIDOPSIS,
    ECOLI,
    HUMAN,
    MOUSE,
    RAT,
    WORM,
    YEAST,
    mention_prefix,
    organism_name,
    reporter_organism,
    virus_prefix,
)

_YEAST_ORF = re.compile(r"^Y[A-P][LR]\d{3}[WC](?:-[A-Z])?$")
_YEAST_PROTEIN = re.compile(r"^[A-Z][a-z]{2}\d{1,3}p$")
_ECOLI_GENE = re.compile(r"^[a-z]{3}[A-Z]$")
_ECOLI_PROTEIN = re.compile(r"^[A-Z][a-z]{2}[A-Z]$")
_RODENT_SYMBOL = re.compile(r"^[A-Z][a-z][a-z0-9]*\d[a-z0-9]*$|^[A-Z][a-z]{2,5}$")
_HUMAN_SYMBOL = re.compile(r"^[A-Z][A-Z0-9]*[A-Z][A-Z0-9]*$")
_HUMAN_SYMBOL_DIGIT = re.compile(r"\d")
# worm genes `unc-51`, `lgg-1`, `sqst-1.2` (lower case, dash, number); their proteins `UNC-51` share the form with
# human names such as `MCP-1`, so they count less
_WORM_GENE = re.compile(r"^[a-z]{3,4}-\d+(?:\.\d+)?$")
_WORM_PROTEIN = re.compile(r"^[A-Z]{3,4}-\d+(?:\.\d+)?$")
_ARABIDOPSIS_LOCUS = re.compile(r"^At[1-5CM]g\d{5}$", re.IGNORECASE)


@dataclass(frozen=True)
class FormEvidence:
    """Evidence from a mention's form.

    taxon (int): NCBI taxon. strength (float): 0-1, within its kind.
    kind (str): "prefix" and "reporter" (explicit) or "form" (naming convention, weak).
    label (str): Readable reason, e.g. "form 'Trp53' (capitalised symbol)".
    """

    taxon: int
    strength: float
    kind: str
    label: str


def mention_form_evidence(text: str) -> List[FormEvidence]:
    """Read a mention's form.

    text (str): The mention as written.
    RETURNS (List[FormEvidence]): Zero or more pieces of evidence (several taxa for `Trp53`).
    """
    text = text.strip()
    out: List[FormEvidence] = []
    if not text:
        return out
    reporter = reporter_organism(text)
    if reporter is not None:
        return [
            FormEvidence(
                reporter[0], reporter[1], "reporter", f"reporter '{text}' is a {organism_name(reporter[0])} protein"
            )
        ]
    virus = virus_prefix(text)
    if virus is not None:
        return [FormEvidence(virus[0], 1.0, "prefix", f"virus prefix '{virus[1]}' in '{text}'")]
    prefix = mention_prefix(text)
    if prefix is not None:
        out.append(FormEvidence(prefix[0], 1.0, "prefix", f"prefix '{prefix[1]}' in '{text}'"))
        return out
    if " " in text:
        return out
    if _ARABIDOPSIS_LOCUS.match(text):
        out.append(FormEvidence(ARABIDOPSIS, 1.0, "prefix", f"Arabidopsis locus name '{text}'"))
    elif _WORM_GENE.match(text):
        out.append(FormEvidence(WORM, 1.0, "form", f"form '{text}' (worm gene)"))
    elif _WORM_PROTEIN.match(text):
        out.append(FormEvidence(WORM, 0.5, "form", f"form '{text}' (worm protein)"))
    elif _YEAST_ORF.match(text):
        out.append(FormEvidence(YEAST, 1.0, "prefix", f"yeast ORF name '{text}'"))
    elif _YEAST_PROTEIN.match(text):
        out.append(FormEvidence(YEAST, 1.0, "form", f"form '{text}' (yeast protein, -p)"))
    elif _ECOLI_GENE.match(text):
        out.append(FormEvidence(ECOLI, 0.6, "form", f"form '{text}' (bacterial gene)"))
    elif _ECOLI_PROTEIN.match(text):
        out.append(FormEvidence(ECOLI, 0.3, "form", f"form '{text}' (bacterial protein)"))
    elif _RODENT_SYMBOL.match(text):
        out.append(FormEvidence(MOUSE, 1.0, "form", f"form '{text}' (capitalised symbol)"))
        out.append(FormEvidence(RAT, 0.3, "form", f"form '{text}' (capitalised symbol)"))
    elif _HUMAN_SYMBOL.match(text) and len(text) >= 3:
        strength = 1.0 if _HUMAN_SYMBOL_DIGIT.search(text) else 0.7
        out.append(FormEvidence(HUMAN, strength, "form", f"form '{text}' (upper-case symbol)"))
        out.append(FormEvidence(YEAST, 0.3 * strength, "form", f"form '{text}' (upper-case symbol)"))
    return out
