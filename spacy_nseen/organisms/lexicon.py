"""Species lexicon: organism words, names, adjectives, abbreviations and mention prefixes → NCBI taxon.

Plain data written from what a biologist reads in a figure caption (no corpus mining). Taxon ids are
the ones UniProt uses for its reference proteomes (yeast = strain S288c 559292, E. coli = K-12 83333),
so an assigned taxon compares directly with a UniProt entry's organism. Organisms without a reference
set in this project (fly, worm, fish, frog, plant, ...) are listed too: a protein of such an organism
has no right entry in a human/mouse/rat/yeast/E. coli reference set, and knowing that matters.
"""

import re
from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterator, List, Optional, Pattern, Tuple

HUMAN = 9606
MOUSE = 10090
RAT = 10116
YEAST = 559292
ECOLI = 83333
FISSION_YEAST = 284812
FLY = 7227
WORM = 6239
ZEBRAFISH = 7955
XENOPUS = 8355
ARABIDOPSIS = 3702
CHICKEN = 9031
COW = 9913
PIG = 9823
DOG = 9615
RABBIT = 9986
HAMSTER = 10029
MONKEY = 9544
AFRICAN_GREEN_MONKEY = 9534
SHEEP = 9940
HORSE = 9796
DICTYOSTELIUM = 44689
PLASMODIUM = 36329
BACILLUS = 224308
HIV1 = 11676
JELLYFISH = 6100
DISCOSOMA = 86600
FIREFLY = 7054
SEA_PANSY = 6136
P1_PHAGE = 10678
SCHISTOSOMA = 6182
INSECT_SF = 7108
CHLAMYDOMONAS = 3055
TETRAHYMENA = 5911
NEUROSPORA = 5141
TOBACCO = 4100
KSHV = 37296
EBV = 10376
HCMV = 10359
HSV1 = 10298
INFLUENZA_A = 11320
MHV68 = 33708

# taxon -> short readable name (used in evidence strings and reports)
ORGANISM_NAMES: Dict[int, str] = {
    HUMAN: "human",
    MOUSE: "mouse",
    RAT: "rat",
    YEAST: "budding yeast",
    ECOLI: "E. coli",
    FISSION_YEAST: "fission yeast",
    FLY: "fruit fly",
    WORM: "C. elegans",
    ZEBRAFISH: "zebrafish",
    XENOPUS: "Xenopus",
    ARABIDOPSIS: "Arabidopsis",
    CHICKEN: "chicken",
    COW: "cattle",
    PIG: "pig",
    DOG: "dog",
    RABBIT: "rabbit",
    HAMSTER: "Chinese hamster",
    MONKEY: "rhesus macaque",
    AFRICAN_GREEN_MONKEY: "African green monkey",
    SHEEP: "sheep",
    HORSE: "horse",
    DICTYOSTELIUM: "Dictyostelium",
    PLASMODIUM: "Plasmodium falciparum",
    BACILLUS: "B. subtilis",
    HIV1: "HIV-1",
    JELLYFISH: "Aequorea victoria",
    DISCOSOMA: "Discosoma",
    FIREFLY: "firefly",
    SEA_PANSY: "Renilla",
    P1_PHAGE: "phage P1",
    SCHISTOSOMA: "Schistosoma japonicum",
    INSECT_SF: "Spodoptera frugiperda",
    CHLAMYDOMONAS: "Chlamydomonas",
    TETRAHYMENA: "Tetrahymena",
    NEUROSPORA: "Neurospora",
    TOBACCO: "Nicotiana benthamiana",
    KSHV: "KSHV",
    EBV: "EBV",
    HCMV: "HCMV",
    HSV1: "HSV-1",
    INFLUENZA_A: "influenza A virus",
    MHV68: "MHV-68",
    8364: "Xenopus tropicalis",
    1280: "S. aureus",
    5811: "Toxoplasma",
}

# Taxa that are "the same organism" for a reader: the species id and the strain id UniProt uses.
TAXON_ALIASES: Dict[int, int] = {4932: YEAST, 562: ECOLI, 4896: FISSION_YEAST, 8364: XENOPUS, 10088: MOUSE, 10114: RAT}

# Words and names matched case-insensitively as whole words (`\s+` between the words of a phrase).
# value: (taxon, strength in (0, 1]); a weak strength marks words that often name an expression host
# or a method rather than the organism of the protein (`purified from E. coli`).
SPECIES_WORDS: Dict[str, Tuple[int, float]] = {
    # human
    "human": (HUMAN, 1.0),
    "humans": (HUMAN, 1.0),
    "homo sapiens": (HUMAN, 1.0),
    "h. sapiens": (HUMAN, 1.0),
    "patient": (HUMAN, 0.8),
    "patients": (HUMAN, 0.8),
    "healthy donors": (HUMAN, 0.8),
    "donors": (HUMAN, 0.5),
    # mouse
    "mouse": (MOUSE, 1.0),
    "mice": (MOUSE, 1.0),
    "murine": (MOUSE, 1.0),
    "mus musculus": (MOUSE, 1.0),
    "m. musculus": (MOUSE, 1.0),
    "c57bl/6": (MOUSE, 1.0),
    "c57bl/6j": (MOUSE, 1.0),
    "c57bl": (MOUSE, 1.0),
    "balb/c": (MOUSE, 1.0),
    "knockout mice": (MOUSE, 1.0),
    "littermates": (MOUSE, 0.5),
    # rat
    "rat": (RAT, 1.0),
    "rats": (RAT, 1.0),
    "rattus": (RAT, 1.0),
    "rattus norvegicus": (RAT, 1.0),
    "r. norvegicus": (RAT, 1.0),
    "sprague-dawley": (RAT, 1.0),
    "sprague dawley": (RAT, 1.0),
    "wistar": (RAT, 1.0),
    # budding yeast
    "yeast": (YEAST, 1.0),
    "yeasts": (YEAST, 1.0),
    "budding yeast": (YEAST, 1.0),
    "s. cerevisiae": (YEAST, 1.0),
    "saccharomyces cerevisiae": (YEAST, 1.0),
    "saccharomyces": (YEAST, 1.0),
    "cerevisiae": (YEAST, 1.0),
    # E. coli: usually the expression host of a recombinant protein, rarely the protein's organism
    "e. coli": (ECOLI, 0.3),
    "escherichia coli": (ECOLI, 0.3),
    "bacterial": (ECOLI, 0.15),
    "bacteria": (ECOLI, 0.15),
    # organisms without a reference set here
    "fission yeast": (FISSION_YEAST, 1.0),
    "s. pombe": (FISSION_YEAST, 1.0),
    "schizosaccharomyces pombe": (FISSION_YEAST, 1.0),
    "pombe": (FISSION_YEAST, 1.0),
    "drosophila": (FLY, 1.0),
    "d. melanogaster": (FLY, 1.0),
    "drosophila melanogaster": (FLY, 1.0),
    "fly": (FLY, 0.8),
    "flies": (FLY, 0.8),
    "fruit fly": (FLY, 1.0),
    "c. elegans": (WORM, 1.0),
    "caenorhabditis elegans": (WORM, 1.0),
    "caenorhabditis": (WORM, 1.0),
    "worm": (WORM, 0.8),
    "worms": (WORM, 0.8),
    "nematode": (WORM, 0.8),
    "nematodes": (WORM, 0.8),
    "zebrafish": (ZEBRAFISH, 1.0),
    "danio rerio": (ZEBRAFISH, 1.0),
    "d. rerio": (ZEBRAFISH, 1.0),
    "danio": (ZEBRAFISH, 1.0),
    "xenopus": (XENOPUS, 1.0),
    "x. laevis": (XENOPUS, 1.0),
    "xenopus laevis": (XENOPUS, 1.0),
    "x. tropicalis": (XENOPUS, 1.0),
    "xenopus tropicalis": (XENOPUS, 1.0),
    "frog": (XENOPUS, 0.8),
    "frogs": (XENOPUS, 0.8),
    "tadpole": (XENOPUS, 0.8),
    "tadpoles": (XENOPUS, 0.8),
    "egg extract": (XENOPUS, 0.6),
    "egg extracts": (XENOPUS, 0.6),
    # (no `larvae`: zebrafish and worm papers write it too)
    "imaginal disc": (FLY, 1.0),
    "imaginal discs": (FLY, 1.0),
    "wing disc": (FLY, 1.0),
    "wing discs": (FLY, 1.0),
    "hermaphrodite": (WORM, 1.0),
    "hermaphrodites": (WORM, 1.0),
    "dauer": (WORM, 1.0),
    "morphants": (ZEBRAFISH, 0.8),
    "schizosaccharomyces": (FISSION_YEAST, 1.0),
    "arabidopsis": (ARABIDOPSIS, 1.0),
    "a. thaliana": (ARABIDOPSIS, 1.0),
    "arabidopsis thaliana": (ARABIDOPSIS, 1.0),
    "plant": (ARABIDOPSIS, 0.4),
    "plants": (ARABIDOPSIS, 0.4),
    "seedlings": (ARABIDOPSIS, 0.6),
    "chicken": (CHICKEN, 1.0),
    "chick": (CHICKEN, 1.0),
    "gallus gallus": (CHICKEN, 1.0),
    "avian": (CHICKEN, 0.6),
    "dt40": (CHICKEN, 1.0),
    "bovine": (COW, 1.0),
    "cow": (COW, 1.0),
    "calf": (COW, 0.8),
    "bos taurus": (COW, 1.0),
    "porcine": (PIG, 1.0),
    "pig": (PIG, 1.0),
    "pigs": (PIG, 1.0),
    "sus scrofa": (PIG, 1.0),
    "canine": (DOG, 1.0),
    "dog": (DOG, 1.0),
    "dogs": (DOG, 1.0),
    "rabbit": (RABBIT, 0.3),
    "rabbits": (RABBIT, 0.3),
    "hamster": (HAMSTER, 1.0),
    "cricetulus griseus": (HAMSTER, 1.0),
    "monkey": (MONKEY, 0.8),
    "macaque": (MONKEY, 1.0),
    "rhesus": (MONKEY, 1.0),
    "simian": (MONKEY, 0.6),
    "ovine": (SHEEP, 1.0),
    "sheep": (SHEEP, 0.3),
    "equine": (HORSE, 1.0),
    "dictyostelium": (DICTYOSTELIUM, 1.0),
    "plasmodium": (PLASMODIUM, 1.0),
    "p. falciparum": (PLASMODIUM, 1.0),
    "b. subtilis": (BACILLUS, 1.0),
    "bacillus subtilis": (BACILLUS, 1.0),
    "hiv": (HIV1, 0.7),
    "hiv-1": (HIV1, 0.7),
    # no virus words (`KSHV`, `EBV`): a virus paper's captions are mostly about the infected host's proteins (with
    # `KSHV` at 0.3, the host's paxillin, CrkL and CrkII of one dev article were assigned KSHV and left unlinked:
    # 18 gold spans); a viral protein is named by its prefix (`KSHV-TK`, `VIRUS_PREFIXES`)
    # free-living model organisms studied on their own (pathogens are left out: their words name the infected
    # host's proteins' captions too, README "Limitations")
    "chlamydomonas": (CHLAMYDOMONAS, 1.0),
    "c. reinhardtii": (CHLAMYDOMONAS, 1.0),
    "chlamydomonas reinhardtii": (CHLAMYDOMONAS, 1.0),
    "tetrahymena": (TETRAHYMENA, 1.0),
    "t. thermophila": (TETRAHYMENA, 1.0),
    "neurospora": (NEUROSPORA, 1.0),
    "n. crassa": (NEUROSPORA, 1.0),
    "n. benthamiana": (TOBACCO, 1.0),
    "nicotiana benthamiana": (TOBACCO, 1.0),
    "benthamiana": (TOBACCO, 1.0),
}

# Lower-case organism codes (KEGG/miRBase style), matched case-sensitively: `hsa-miR-21`, `mmu`.
CASED_WORDS: Dict[str, Tuple[int, float]] = {
    "hsa": (HUMAN, 0.6),
    "mmu": (MOUSE, 0.6),
    "rno": (RAT, 0.6),
    "sce": (YEAST, 0.6),
    "dme": (FLY, 0.6),
    "dre": (ZEBRAFISH, 0.6),
    "ath": (ARABIDOPSIS, 0.6),
}

# Primary cells, tissues of one organism by convention, and cell words: (taxon, strength).
PRIMARY_CELLS: Dict[str, Tuple[int, float]] = {
    "mef": (MOUSE, 1.0),
    "mefs": (MOUSE, 1.0),
    "bmdm": (MOUSE, 1.0),
    "bmdms": (MOUSE, 1.0),
    "bmdc": (MOUSE, 1.0),
    "bmdcs": (MOUSE, 1.0),
    "mesc": (MOUSE, 1.0),
    "mescs": (MOUSE, 1.0),
    "hesc": (HUMAN, 1.0),
    "hescs": (HUMAN, 1.0),
    "huvec": (HUMAN, 1.0),
    "huvecs": (HUMAN, 1.0),
    "pbmc": (HUMAN, 0.8),
    "pbmcs": (HUMAN, 0.8),
    "hff": (HUMAN, 1.0),
    "hffs": (HUMAN, 1.0),
    "ipsc": (HUMAN, 0.6),
    "ipscs": (HUMAN, 0.6),
    "hipsc": (HUMAN, 1.0),
    "hipscs": (HUMAN, 1.0),
    "imr90": (HUMAN, 1.0),
    "wi38": (HUMAN, 1.0),
    "oocytes": (XENOPUS, 0.3),
    "embryonic fibroblasts": (MOUSE, 0.6),
    "thymocytes": (MOUSE, 0.4),
    "splenocytes": (MOUSE, 0.4),
    "s2 cells": (FLY, 1.0),
    "sf9": (INSECT_SF, 1.0),
    "sf21": (INSECT_SF, 1.0),
    "293 cells": (HUMAN, 1.0),
    "293 cell": (HUMAN, 1.0),  # HEK 293, written as its number (no digit-only cell line names)
}

# A virus's abbreviation written before its protein's name (`KSHV-TK`, `EBV-BZLF1`, `HIV-1 Nef`): the protein is
# the virus's (matched case-sensitively, followed by a dash or a space and the name).
VIRUS_PREFIXES: Dict[str, int] = {
    "KSHV": KSHV,
    "HHV-8": KSHV,
    "HHV8": KSHV,
    "EBV": EBV,
    "HIV-1": HIV1,
    "HIV": HIV1,
    "HCMV": HCMV,
    "HSV-1": HSV1,
    "MHV68": MHV68,
    "MHV-68": MHV68,
    "IAV": INFLUENZA_A,
}
_VIRUS_PREFIX = re.compile(
    r"^(" + "|".join(re.escape(p) for p in sorted(VIRUS_PREFIXES, key=len, reverse=True)) + r")[\s\-‐‑–](?=\w)"
)

# Proteins whose name says their organism (reporters and tags): (taxon, strength), matched on the
# mention itself, case-insensitively, after stripping a leading `e`/`d`/`m` of the variants below.
REPORTER_PROTEINS: Dict[str, Tuple[int, float]] = {
    "gfp": (JELLYFISH, 1.0),
    "egfp": (JELLYFISH, 1.0),
    "yfp": (JELLYFISH, 1.0),
    "eyfp": (JELLYFISH, 1.0),
    "cfp": (JELLYFISH, 1.0),
    "ecfp": (JELLYFISH, 1.0),
    "bfp": (JELLYFISH, 1.0),
    "venus": (JELLYFISH, 0.8),
    "green fluorescent protein": (JELLYFISH, 1.0),
    "rfp": (DISCOSOMA, 0.8),
    "mcherry": (DISCOSOMA, 1.0),
    "dsred": (DISCOSOMA, 1.0),
    "tdtomato": (DISCOSOMA, 1.0),
    "luciferase": (FIREFLY, 0.6),
    "firefly luciferase": (FIREFLY, 1.0),
    "renilla luciferase": (SEA_PANSY, 1.0),
    "cre": (P1_PHAGE, 1.0),
    "cre recombinase": (P1_PHAGE, 1.0),
    "gst": (SCHISTOSOMA, 0.8),
    "glutathione s-transferase": (SCHISTOSOMA, 0.5),
    "lacz": (ECOLI, 1.0),
    "beta-galactosidase": (ECOLI, 0.8),
    "β-galactosidase": (ECOLI, 0.8),
    "β-gal": (ECOLI, 0.8),
}

# Prefixes written on a protein/gene name: `hTERT`, `mPer2`, `rGH`, `HsRad51`, `h-Ras`.
# Two-letter genus-species prefixes come first (matched case-sensitively, followed by a capital).
GENUS_SPECIES_PREFIXES: Dict[str, int] = {
    "Hs": HUMAN,
    "Mm": MOUSE,
    "Rn": RAT,
    "Sc": YEAST,
    "Sp": FISSION_YEAST,
    "Dm": FLY,
    "Ce": WORM,
    "Dr": ZEBRAFISH,
    "Xl": XENOPUS,
    "At": ARABIDOPSIS,
    "Gg": CHICKEN,
    "Ec": ECOLI,
}
LETTER_PREFIXES: Dict[str, int] = {
    "rh": HUMAN,
    "rm": MOUSE,
    "h": HUMAN,
    "m": MOUSE,
    "r": RAT,
    "y": YEAST,
    "x": XENOPUS,
    "d": FLY,
    "z": ZEBRAFISH,
}
# Names that start like a prefixed name but are not one (`mTOR` = mechanistic target of rapamycin).
PREFIX_EXCEPTIONS: Pattern[str] = re.compile(
    r"^(?:m(?:TOR|GluR|RNA|Ab|AB|Cherry|Orange|Plum|Venus|Citrine|KO|Kate|NeonGreen|EGFP|ESC|EF|Scarlet)"
    r"|d(?:[ACGTU]TP|NTP|sRNA|NA)|r(?:RNA|NA|DNA|AAV)|h(?:nRNP|ESC|SC|CMV)|[a-z]KO|[rm]h?[A-Z]{0,2}$"
    r"|x(?:[A-Z]$))"
)

# Words of a grafted-tumour experiment (`xenografts`, `nude mice`, `NOD/SCID`, `tumour-bearing`, `orthotopic`): the
# mice or rats of such a text are the hosts of grafted (mostly human) cells, not the organism of its proteins
GRAFT_WORDS: Pattern[str] = re.compile(
    r"xenograft|\bnude\b|NOD[/ -]?SCID|\bSCID\b|\bNSG\b|immuno-?deficient|athymic|tumou?r[\s-]*bearing"
    r"|bearing\s+(?:\w+\s+){0,2}tumou?rs?|orthotopic|engraft|\bPDX\b",
    re.IGNORECASE,
)
GRAFT_HOSTS = (MOUSE, RAT)

# Contexts where a species word names an antibody's host or target, not the organism of a protein.
ANTIBODY_AFTER: Pattern[str] = re.compile(
    r"^[\s-]*(?:anti|monoclonal|polyclonal|igg|igm|antibod|antiser|serum|sera|secondary|isotype)", re.IGNORECASE
)
ANTIBODY_BEFORE: Pattern[str] = re.compile(r"(?:anti[\s-]*|α-)$", re.IGNORECASE)
# Methods named after an organism: `yeast two-hybrid`, `Y2H`, `yeast extract`; whole words only (`patient
# displaying` is no method).
METHOD_AFTER: Pattern[str] = re.compile(
    r"^[\s-]*(?:two[\s-]*hybrid|2[\s-]*hybrid|three[\s-]*hybrid|extracts?|display|expression\s+vector)(?![^\W_])",
    re.IGNORECASE,
)

# A species word glued to the next word, as text whose formatting was stripped often reads (`humanlung`,
# `mousefibroblasts`, `humanPMNs`); not when the rest makes an ordinary word (`humanized`, `humane`).
GLUED_WORD: Pattern[str] = re.compile(r"(?<![\w/-])(human|mouse|murine|rats?)(?=[^\W\d_]{3,})", re.IGNORECASE)
GLUED_NOT: Pattern[str] = re.compile(
    r"(?:i[sz](?:e|ed|es|ing|ations?)|it(?:y|ies|arian)|e(?:ly|ness)?|kind|oids?|ly|ness|trap"  # human-, mouse-
    r"|io(?:s|metric|nal\w*|nale)?|ion(?:s|al\w*|ale)?|her|ing|e[sd]?|tle\w*|ifi\w*)(?![^\W\d_])",  # ratio, rather
    re.IGNORECASE,
)
GLUED_TAXA: Dict[str, int] = {"human": HUMAN, "mouse": MOUSE, "murine": MOUSE, "rat": RAT, "rats": RAT}

# Genotype notations of one organism (with substrings that must occur for the regex to match): yeast deletions
# `atg1Δ`, `Δpep4`; floxed alleles `Atg7fl/fl` and knockouts `Atg5−/−` of mouse genetics. A yeast deletion names
# budding yeast unless the text or its context names fission yeast, whose genetics writes them the same way
# (`evidence.TextEvidence.in_fission_yeast`).
YEAST_DELETION = "yeast deletion"
# Species words that both yeasts' papers write: budding yeast's unless the text or its context names fission yeast
EITHER_YEAST_WORDS = frozenset({"yeast", "yeasts"})
GENOTYPES: Tuple[Tuple[Tuple[str, ...], Pattern[str], int, float, str], ...] = (
    (
        ("Δ", "∆", "delta"),
        re.compile(r"(?<![\w-])[a-z]{3}\d{1,3}(?:-\d+)?(?:Δ|∆|delta\b)|(?:Δ|∆)[a-z]{3}\d{1,3}\b"),
        YEAST,
        0.8,
        YEAST_DELETION,
    ),
    # fission yeast genetics writes a wild-type allele with a `+` (`ura4+`, `mei4+`), which budding yeast does not
    # (`URA3`), and names ORFs `SPBC16A3.01`, `SPAC23C11.06c`
    (("+",), re.compile(r"(?<![\w-])[a-z]{3}\d{1,3}\+(?![+/\d])"), FISSION_YEAST, 0.8, "fission yeast allele"),
    (
        ("SP",),
        re.compile(r"(?<![\w.])SP[ABC][A-Z0-9]{1,8}\.\d{2}c?(?![\w.])"),
        FISSION_YEAST,
        1.0,
        "S. pombe systematic name",
    ),
    (
        ("/f", "flox"),
        re.compile(r"(?<![A-Za-z])(?:fl|f|flox)/(?:fl|f|flox)\b|\bflox(?:ed)?\b"),
        MOUSE,
        0.8,
        "floxed allele",
    ),
    (("/−", "/-", "/–"), re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:[−–-]/[−–-]|\+/[−–-])"), MOUSE, 0.4, "knockout"),
)


@dataclass(frozen=True)
class SpeciesHit:
    """One species word found in a text.

    start, end (int): Character offsets of the word.
    taxon (int): NCBI taxon id.
    strength (float): How strongly the word names the organism of the proteins around it (0-1).
    label (str): What was found, for evidence strings (e.g. "word 'mice'").
    """

    start: int
    end: int
    taxon: int
    strength: float
    label: str


def _phrase_pattern(phrase: str) -> str:
    parts = [re.escape(p) for p in phrase.split(" ")]
    out = parts[0]
    for part in parts[1:]:
        # `S. cerevisiae`, `S.cerevisiae`; plain phrases need whitespace or a hyphen
        out += (r"\s*" if out.endswith(r"\.") else r"[\s-]+") + part
    return out


def _alternation(words: Dict[str, Tuple[int, float]], flags: int) -> Pattern[str]:
    ordered = sorted(words, key=lambda w: (-len(w), w))
    body = "|".join(_phrase_pattern(w) for w in ordered)
    return re.compile(rf"(?:{body})(?![\w/])", flags)


_FIRST_WORD = re.compile(r"[^\W\d_]\.|[^\s./-]+")


def _first_words(words: Dict[str, Tuple[int, float]], fold: bool) -> FrozenSet[str]:
    firsts = {_FIRST_WORD.match(w).group(0) for w in words}  # type: ignore[union-attr]
    return frozenset(w.lower() if fold else w for w in firsts)


_WORD_TABLE = {**SPECIES_WORDS, **PRIMARY_CELLS}
_WORD_RE = _alternation(_WORD_TABLE, re.IGNORECASE)
_CASED_RE = _alternation(CASED_WORDS, 0)
_WORD_FIRSTS = _first_words(_WORD_TABLE, fold=True)
_CASED_FIRSTS = _first_words(CASED_WORDS, fold=False)
# Candidate starts: a word (or a number: `293 cells`) not preceded by a letter, digit, `/` or `-` (`anti-mouse` is
# handled apart).
_WORD_START = re.compile(r"(?<![\w/-])(?:[^\W\d_]\.|[^\W_][^\W_]*)")
_SPACES = re.compile(r"[\s-]+")


def _lookup_key(found: str) -> str:
    key = _SPACES.sub(" ", found.lower())
    return re.sub(r"\.\s*", ". ", key)


def find_species_words(text: str) -> Iterator[SpeciesHit]:
    """Find organism words, names, codes and primary cells in a text.

    Words that name an antibody host (`mouse anti-FLAG`, `anti-rabbit IgG`) or a method
    (`yeast two-hybrid`) are skipped.
    text (str): Any text.
    YIELDS (SpeciesHit): The hits, in text order.
    """
    lower = text.lower()
    if len(lower) != len(text):  # a rare character whose lower case is longer: keep offsets exact
        lower = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    words = set(_WORD_START.findall(lower))
    found = [(w, True) for w in words & _WORD_FIRSTS]
    if any(w in text for w in _CASED_FIRSTS):
        found += [(w, False) for w in set(_WORD_START.findall(text)) & _CASED_FIRSTS]
    starts = sorted(
        {
            (m.start(), folded)
            for w, folded in found
            for m in re.finditer(
                rf"(?<![\w/-]){re.escape(w)}" + ("" if w.endswith(".") else r"(?![^\W_])"), lower if folded else text
            )
        }
    )
    last_end = 0
    for start, folded in starts:
        if start < last_end:  # inside a phrase already found (`knockout mice`)
            continue
        regex, table, key_of = (_WORD_RE, _WORD_TABLE, _lookup_key) if folded else (_CASED_RE, CASED_WORDS, str)
        m = regex.match(text, start)
        if m is None:
            continue
        key = key_of(m.group(0))
        entry = table.get(key) or table.get(key.replace("-", " ")) or table.get(key.replace(" ", "-"))
        if entry is None:
            continue
        after = text[m.end() : m.end() + 24]
        before = text[max(0, m.start() - 6) : m.start()]
        if ANTIBODY_AFTER.match(after) or ANTIBODY_BEFORE.search(before) or METHOD_AFTER.match(after):
            continue
        kind = "cells" if key in PRIMARY_CELLS else "word"
        last_end = m.end()
        yield SpeciesHit(m.start(), m.end(), entry[0], entry[1], f"{kind} '{m.group(0)}'")
    if any(w in lower for w in ("human", "mouse", "murine", "rat")):
        yield from _glued_words(text)
    for needles, regex, taxon, strength, what in GENOTYPES:
        if not any(n in text for n in needles):  # cheap test before the regex
            continue
        for m in regex.finditer(text):
            yield SpeciesHit(m.start(), m.end(), taxon, strength, f"{what} '{m.group(0)}'")


def _glued_words(text: str) -> Iterator[SpeciesHit]:
    """Species words glued to the next word (`GLUED_WORD`), unless that makes an ordinary word, an antibody
    host (`mouseIgG`) or a method."""
    for m in GLUED_WORD.finditer(text):
        rest = text[m.end() : m.end() + 24]
        if GLUED_NOT.match(rest) or ANTIBODY_AFTER.match(rest) or METHOD_AFTER.match(rest):
            continue
        word = re.match(r"[^\W\d_]+", rest).group(0)  # type: ignore[union-attr]
        yield SpeciesHit(
            m.start(), m.end(), GLUED_TAXA[m.group(1).lower()], 1.0, f"word '{m.group(0)}' (glued to '{word}')"
        )


def mention_prefix(text: str) -> Optional[Tuple[int, str]]:
    """The organism a prefix on a protein name points to: `hTERT` → 9606, `ScRad51` → 559292.

    RETURNS (Optional[Tuple[int, str]]): (taxon, prefix) or None.
    """
    if len(text) >= 4 and text[:2] in GENUS_SPECIES_PREFIXES and text[2].isupper():
        return GENUS_SPECIES_PREFIXES[text[:2]], text[:2]
    for prefix in sorted(LETTER_PREFIXES, key=len, reverse=True):
        if not text.startswith(prefix):
            continue
        rest = text[len(prefix) :]
        if rest.startswith("-") and prefix in ("h", "m", "r") and len(rest) > 2 and rest[1].isalpha():
            if rest[1:].lower() in ("calpain",):
                return None
            return LETTER_PREFIXES[prefix], prefix + "-"
        if len(rest) >= 2 and rest[0].isupper() and not PREFIX_EXCEPTIONS.match(text):
            return LETTER_PREFIXES[prefix], prefix
        return None
    return None


def virus_prefix(text: str) -> Optional[Tuple[int, str]]:
    """The virus a prefix on a protein name points to: `KSHV-TK` → 37296.

    RETURNS (Optional[Tuple[int, str]]): (taxon, prefix) or None.
    """
    m = _VIRUS_PREFIX.match(text)
    return (VIRUS_PREFIXES[m.group(1)], m.group(1)) if m else None


def reporter_organism(text: str) -> Optional[Tuple[int, float]]:
    """The organism of a reporter or tag protein named by the whole mention (`EGFP`, `mCherry`).

    RETURNS (Optional[Tuple[int, float]]): (taxon, strength) or None.
    """
    key = _SPACES.sub(" ", text.strip().lower())
    return REPORTER_PROTEINS.get(key) or REPORTER_PROTEINS.get(key.replace(" ", "-"))


def organism_name(taxon: Optional[int]) -> str:
    """RETURNS (str): A short readable name of a taxon ("mouse"), or "taxon N"."""
    if taxon is None:
        return "none"
    return ORGANISM_NAMES.get(taxon, f"taxon {taxon}")


def canonical_taxon(taxon: int) -> int:
    """RETURNS (int): The taxon UniProt uses for that organism (4932 → 559292), else the taxon."""
    return TAXON_ALIASES.get(taxon, taxon)


def known_taxa() -> List[int]:
    """RETURNS (List[int]): Every taxon the lexicon can name, sorted."""
    taxa = {t for t, _ in SPECIES_WORDS.values()} | {t for t, _ in PRIMARY_CELLS.values()}
    taxa |= set(GENUS_SPECIES_PREFIXES.values()) | set(LETTER_PREFIXES.values())
    return sorted(taxa)
