"""Epitope tags, reporters, genetic tools and experimental-group labels that captions write like protein names:
`HA`, `Flag`, `GFP`, `Cre`, `TRE`, `NTG`.

They are in no reference set of endogenous proteins (Bio-ID leaves them un-normalised), yet some share a name with
an entry (`HA` is an E. coli protein's name, `MBP` myelin basic protein's): the NIL decision reads `is_tag_name`
as one of its features (`linker.nil_decision`), and `training.linker.train_nil` learns its weight from these
names linked as wrong answers. Matching is case-sensitive (`Myc` the tag, `MYC` the human gene), after a copy
number prefix (`3xFlag`, `6×His`) and a `tag` suffix (`HA-tag`, `Flag tag`) are removed.

Experimental-group labels (`GROUP_LABELS`: `WT`, `KO`, `NTG` "non-transgenic") name mice or cells, never a protein,
yet several are an alias in a reference set (`NTG` of OPA1, `KO` of keratin 18, `CTRL` is a gene symbol); they are
read as tag names. `TG`/`Tg` are not among them: Bio-ID links them (thapsigargin, thyroglobulin).
"""

import re

TAG_NAMES = (
    "Flag",
    "FLAG",
    "HA",
    "Myc",
    "myc",
    "c-Myc tag",
    "V5",
    "His",
    "His6",
    "6xHis",
    "GST",
    "MBP",
    "Strep",
    "T7",
    "GFP",
    "EGFP",
    "eGFP",
    "YFP",
    "EYFP",
    "CFP",
    "RFP",
    "mRFP",
    "mCherry",
    "tdTomato",
    "DsRed",
    "mVenus",
    "Venus",
    "BFP",
    "luciferase",
    "Luciferase",
    "Renilla luciferase",
    "firefly luciferase",
    "NanoLuc",
    "beta-galactosidase",
    "LacZ",
    "lacZ",
    "HaloTag",
    "SNAP",
    "SNAP-tag",
    "TAP",
    "Avi",
    "BirA",
    "Cre",
    "Cas9",
    "dCas9",
    "TetR",
    "rtTA",
    "Gal4",
    "GAL4",
    "VP16",
    "mNeonGreen",
    "Dendra2",
    "PA-GFP",
    # more reporters and tethering tools (session 14): Bio-ID leaves `MS2` un-normalised 74 times of 75, `mGFP` 12 of 12
    "sfGFP",
    "mGFP",
    "ECFP",
    "EBFP",
    "TagRFP",
    "mRuby",
    "mOrange",
    "mScarlet",
    "mKate2",
    "Citrine",
    "Cerulean",
    "MS2",
    "PP7",
    "λN",
    "SBP",
    "tTA",
    "CreERT2",
    # response elements, recombinases and their sites of conditional genetics (`TRE-hTau`, `UAS-GFP`, `Flp`)
    "TRE",
    "UAS",
    "tetO",
    "TetO",
    "loxP",
    "FRT",
    "Flp",
    "FLP",
    "FlpO",
    "Flpo",
)
GROUP_LABELS = (
    "WT",
    "KO",
    "cKO",
    "DKO",
    "TKO",
    "NTG",
    "nTg",
    "Ntg",
    "Het",
    "HET",
    "Ctrl",
    "CTRL",
    "Veh",
)
_COPIES = re.compile(r"^\d+\s*[x×X]\s*")
_TAG_SUFFIX = re.compile(r"[\s\-\u2010\u2011]*tag(?:ged)?$", re.IGNORECASE)
# every name `is_tag_name` reads: the tags, reporters and tools, then the group labels
ALL_TAG_NAMES = TAG_NAMES + GROUP_LABELS
_NAMES = frozenset(ALL_TAG_NAMES)


def is_tag_name(text: str) -> bool:
    """RETURNS (bool): whether a mention names an epitope tag, reporter or tool of `TAG_NAMES`, or is an
    experimental-group label of `GROUP_LABELS` (see the module)."""
    text = text.strip()
    return text in _NAMES or _TAG_SUFFIX.sub("", _COPIES.sub("", text)) in _NAMES
