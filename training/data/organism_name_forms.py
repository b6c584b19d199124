"""Name forms authors write for entries that carry only a gene name (the extra organisms of Swiss-Prot).

The exact look-up folds case, dashes and Greek letters (`spacy_nseen.text.normalization`), so `unc-51`,
`UNC-51` and `Unc51` already match the worm gene name and case variants add nothing. What it cannot find
are the forms that add to the name; each is one rule, added as a name of kind `name_form`, and measured on
its own (`training.experiments.name_form_rules`, results/organisms_all/):

- `yeast_protein`: the protein of a yeast gene, `Cdc2p` of fission yeast `cdc2`, `Atg1p` (the gene name with
  a capital and a `p`);
- `species_prefix`: the two-letter genus-species prefix of the model organisms: `AtATG8a`, `DmAtg1`,
  `CeUNC-51`, `SpCdc2`, `DrTp53`, `XlCdc2`;
- `viral_prefix`: a virus's abbreviation before its gene name: `KSHV-TK`, `EBV-BZLF1`, `HIV-1 Nef`.
"""

import re
from typing import Callable, Dict, Iterable, List, Sequence, Tuple

from .extra_organisms import ExtraEntry

NAME_FORM_KIND = "name_form"
FISSION_YEAST = 284812
# the two-letter prefixes of `spacy_nseen.organisms.lexicon.GENUS_SPECIES_PREFIXES`, for the organisms of the
# extra file (budding yeast, human, mouse and rat have full names)
SPECIES_PREFIXES: Dict[int, str] = {
    3702: "At", 7227: "Dm", 6239: "Ce", FISSION_YEAST: "Sp", 7955: "Dr", 8355: "Xl", 8364: "Xt", 9031: "Gg",
}
VIRUS_ABBREVIATIONS: Dict[int, Tuple[str, ...]] = {
    37296: ("KSHV", "HHV-8"), 10376: ("EBV",), 11676: ("HIV-1", "HIV"), 11709: ("HIV-2",), 10359: ("HCMV",),
    10298: ("HSV-1",), 10310: ("HSV-2",), 10407: ("HBV",), 11103: ("HCV",), 11320: ("IAV",), 33708: ("MHV68",),
}
_YEAST_GENE = re.compile(r"^[a-z]{3}\d{1,3}[a-z]?$")


def yeast_protein(entry: ExtraEntry) -> List[str]:
    """`cdc2` → `Cdc2p` for fission yeast gene names of the standard form (three letters and a number)."""
    gene = entry.gene_name()
    if entry.taxon != FISSION_YEAST or gene is None or not _YEAST_GENE.match(gene):
        return []
    return [gene[0].upper() + gene[1:] + "p"]


def species_prefix(entry: ExtraEntry) -> List[str]:
    """`ATG8A` of Arabidopsis → `AtATG8A`; the same for the other prefixed model organisms."""
    gene = entry.gene_name()
    prefix = SPECIES_PREFIXES.get(entry.taxon)
    if gene is None or prefix is None or len(gene) < 2:
        return []
    return [prefix + gene]


def viral_prefix(entry: ExtraEntry) -> List[str]:
    """`TK` of KSHV → `KSHV-TK`, `KSHV TK` (and the virus's other abbreviations)."""
    gene = entry.gene_name()
    if gene is None:
        return []
    forms: List[str] = []
    for abbreviation in VIRUS_ABBREVIATIONS.get(entry.taxon, ()):
        forms += [f"{abbreviation}-{gene}", f"{abbreviation} {gene}"]
    return forms


RULES: Dict[str, Callable[[ExtraEntry], List[str]]] = {
    "yeast_protein": yeast_protein,
    "species_prefix": species_prefix,
    "viral_prefix": viral_prefix,
}


def parse_rules(spec: str) -> List[str]:
    """RETURNS (List[str]): the rule names of a comma-separated spec (`all` = every rule, `` = none).

    RAISES (ValueError): on an unknown rule.
    """
    words = [w.strip() for w in spec.split(",") if w.strip()]
    if words == ["all"]:
        return list(RULES)
    unknown = sorted(set(words) - set(RULES))
    if unknown:
        raise ValueError(f"unknown name-form rules {unknown}; choose from {sorted(RULES)} or 'all'")
    return words


def name_forms(entry: ExtraEntry, rules: Sequence[str]) -> Iterable[Tuple[str, str]]:
    """YIELDS (Tuple[str, str]): (rule, name) for every form the chosen rules make of the entry's names."""
    for rule in rules:
        for form in RULES[rule](entry):
            yield rule, form
