"""Epitope tags, reporters and genetic tools that captions write like protein names: `HA`, `Flag`, `GFP`, `Cre`.

They are in no reference set of endogenous proteins (Bio-ID leaves them un-normalised), yet some share a name with
an entry (`HA` is an E. coli protein's name, `MBP` myelin basic protein's): the NIL decision reads `is_tag_name`
as one of its features (`linker.nil_decision`), and `training.linker.train_nil` learns its weight from these
names linked as wrong answers. Matching is case-sensitive (`Myc` the tag, `MYC` the human gene), after a copy
number prefix (`3xFlag`, `6×His`) and a `tag` suffix (`HA-tag`, `Flag tag`) are removed.
"""
import re

TAG_NAMES = (
    "Flag", "FLAG", "HA", "Myc", "myc", "c-Myc tag", "V5", "His", "His6", "6xHis", "GST", "MBP", "Strep", "T7",
    "GFP", "EGFP", "eGFP", "YFP", "EYFP", "CFP", "RFP", "mRFP", "mCherry", "tdTomato", "DsRed", "mVenus", "Venus",
    "BFP", "luciferase", "Luciferase", "Renilla luciferase", "firefly luciferase", "NanoLuc", "beta-galactosidase",
    "LacZ", "HaloTag", "SNAP", "SNAP-tag", "TAP", "Avi", "BirA", "Cre", "Cas9", "dCas9", "TetR", "rtTA", "Gal4",
    "GAL4", "VP16", "mNeonGreen", "Dendra2", "PA-GFP",
    # more reporters and tethering tools (session 14): Bio-ID leaves `MS2` un-normalised 74 times of 75, `mGFP` 12 of 12
    "sfGFP", "mGFP", "ECFP", "EBFP", "TagRFP", "mRuby", "mOrange", "mScarlet", "mKate2", "Citrine", "Cerulean",
    "MS2", "PP7", "λN", "SBP", "tTA", "CreERT2",
)
_COPIES = re.compile(r"^\d+\s*[x×X]\s*")
_TAG_SUFFIX = re.compile(r"[\s\-\u2010\u2011]*tag(?:ged)?$", re.IGNORECASE)
_NAMES = frozenset(TAG_NAMES)


def is_tag_name(text: str) -> bool:
    """RETURNS (bool): whether a mention names an epitope tag, reporter or tool of `TAG_NAMES` (see the module)."""
    text = text.strip()
    return text in _NAMES or _TAG_SUFFIX.sub("", _COPIES.sub("", text)) in _NAMES
