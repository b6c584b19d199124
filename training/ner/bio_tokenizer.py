"""Tokenizer rules for figure captions: split where Bio-ID's mention boundaries fall inside spaCy's tokens.

Bio-ID writes `anti‐LC3`, `GFP‐LC3‐positive` with U+2010 (not `-`), which spaCy's English infixes don't split,
so a quarter of the mentions would sit inside a token. `customize_tokenizer` adds these dashes as infixes
(between letters or digits) and U+2212 minus as a prefix, and the caption notations measured against the gold
mention boundaries (`results/ner/metrics.md`, "misaligned"): genotypes (`npc1−/−`, `Hmgb1+/+MEFs`), marker
signs (`GFP+RFP+`, `Tsg101-`), fusions and strains (`LGG-1::GFP`, `flox/+;nestin`), deletions (`atg1Δ`),
point mutants (`Drp1K38A`), glued words (`npc1mice`, `293Tcells`), attached brackets (`PS1(mAb`, `[Ca2+]c`),
knock-down prefixes (`siULK1`, `shATG7`) and a period after a capital (`LAMP‐2A.`). Text whose spaces were lost, as
Bio-ID's often is, is split where a symbol meets a word (`LC3immunoblot`, `nuclearLC3`, `antiLC3`, `Id1KO`,
`CXCR5hi`), at phospho and species prefixes (`pAKT`, `hLC3`, `mouseTrp53`) and at histone marks (`H3K9me3`: Bio-ID
tags `H3`). spaCy applies prefix and suffix rules only at the two ends of a space-separated chunk, so `GLUE_INFIXES`
repeats the glue rules as zero-width infixes, which split anywhere in it (`RFP‐mAtg9`, `Atg7fl/fl`,
`SOD1G85R‐induced`, `HCT116XIAP`), with a few more: reporters and cell types glued to a gene (`Cx3cr1GFP`,
`Atg5MEFs`), `LC3II`, species codes (`HsAtg4B`, `ScAtg8`), `prApe1`. A plural's `s` is not split: Bio-ID keeps it
in the mention (`MEFs`: 556 of 559). Every rule only adds token
boundaries, so a span aligned with the old rules stays aligned. It is used by `training.ner.ner_corpus` and,
through the `nseen_bio.bio_tokenizer.v1` callback in `configs/ner.cfg` (`[initialize.before_init]`, with
`--code training/ner/bio_tokenizer.py`), by `spacy train`. The rules are saved with the tokenizer, so the trained
and packaged pipelines need no code for them (the assembled pipeline copies the NER model's tokenizer).
"""
from typing import Callable, List

import spacy
from spacy.language import Language
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

UNICODE_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2212"
_SIGNS = "+\\-" + UNICODE_DASHES  # plus, hyphen and the Unicode dashes/minus
_GENOTYPE = rf"(?<=[\w)])[{_SIGNS}]/[{_SIGNS}]"  # npc1−/−, Rheb+/−, Map1lc3b-/-
EXTRA_INFIXES: List[str] = [
    _GENOTYPE,
    rf"(?<=[\w])[{UNICODE_DASHES}](?=[\w])",  # anti‐LC3
    r"(?<=[A-Za-z0-9)\]])\+(?=[A-Za-z(\[])",  # GFP+RFP+, control+BAF, Beclin‐1+Mad2
    r"(?<=[\w)\]])(?:::|[:;∷])(?=[\w(\[])",  # LGG-1::GFP, flox/+;nestin, GFP∷Atg8a
    rf"(?<=[\w)\]{_SIGNS}])/(?=[\w(\[{_SIGNS}])",  # (VDRs)/retinoid, daf-15/+, Lamp1/2
    r"(?<=\w)[Δ∆](?=\w)",  # apg12Δapg16
    rf"(?<=[\w+{UNICODE_DASHES}])[(\[](?=[\w+{UNICODE_DASHES}])",  # PS1(mAb, eat-2(ad1116)
    rf"(?<=[\w+{UNICODE_DASHES}])[)\]](?=[\w{UNICODE_DASHES}])",  # [Ca2+]c, (B)COS7, [14C]GAPDH
]
EXTRA_SUFFIXES: List[str] = [
    _GENOTYPE,
    rf"(?<=[A-Za-z0-9)\]])[{_SIGNS}]",  # RFP+, Tsg101- (and), Leu−
    r"(?<=\w)[Δ∆]",  # atg1Δ
    r"(?<=[0-9])[A-Z][0-9]{1,4}[A-Z]",  # Drp1K38A, DHR3W284X
    r"(?<=[0-9A-Z)])(?:mice|mouse|flies|cells)",  # npc1mice, GFPmice, 293Tcells
    r"(?<=[A-Z])\.",  # LAMP‐2A. (spaCy splits a final period after lower-case letters and digits only)
    r"(?:(?<=H[1-4])|(?<=H2[AB]))[KRST][0-9]{1,3}(?:me[1-3]?|ac|ph|ub|cr)?",  # H3K9me3, H2BK120ub
    r"(?<=[A-Z0-9][A-Z0-9])[a-z]{4,}",  # LC3immunoblot, GFPmice, IFT20immunoblot (not Actin: two capitals/digits)
    r"(?<=[A-Z0-9])(?:WT|KO|wt|ko|fl|flox|lox|Tg|mut|hi|lo|null)",  # Id1KO, Atg7flox, CXCR5hi
]
EXTRA_PREFIXES: List[str] = [
    "\u2212",
    r"[Δ∆](?=\w)",  # Δapg10
    r"(?:si|sh)(?!RNA)(?=[A-Z])",  # siULK1, shATG7 (siRNA stays one token)
    rf"[\-{UNICODE_DASHES}](?=[A-Za-z])",  # Anti‐ULK1, ‐Actin and ‐LC3
    "±",
    r"[a-z]{4,}(?=[A-Z0-9])",  # nuclearLC3, antiLC3, cytosolicHMGB1
    r"p(?=[A-Z]{2})",  # pAKT, pERK (phospho)
    r"[hm](?!RNA|iR)(?=[A-Z][A-Za-z0-9]*[A-Z0-9])",  # hLC3, mTOR (not mRNA, miR)
    r"(?:[Mm]ouse|[Hh]uman|[Rr]at|[Zz]ebrafish|[Yy]east)(?=[A-Z0-9])",  # mouseTrp53, humanLC3B
]

# Zero-width infixes: a boundary inside a token, without a token of its own. Unlike the prefix and suffix rules,
# which spaCy applies only at the two ends of a space-separated chunk, an infix applies anywhere, so these also
# split the pieces of `RFP‐mAtg9`, `Atg7fl/fl`, `SOD1G85R‐induced` or `HCT116XIAP‐KO`. `_END` is the end of a word.
_END = r"(?=[^A-Za-z0-9]|$)"
_CELLS = r"(?:MEF|ESC|EC|CM|GIC|AON|HSC|NPC|NSC|iPSC|BMDM|BMDC|DC|MSC|HUVEC)s?"
_REPORTERS = r"(?:E?GFP|eGFP|[YRC]FP|mCherry|Cre(?:ER(?:T2?)?)?|FLAG|Flag|HA|Myc|IRES)"
_GLUED_WORDS = (r"(?:mice|mouse|fibroblasts?|brains?|livers?|hearts?|kidneys?|lungs?|tissues?|tumou?rs?|macrophages?"
                r"|neurons?|lysates?|lysosomes|food|glucose|staining|expression|levels?|cells?|proteins?|mRNA|shRNA|siRNA"
                r"|positive|negative|deficient|knockout|transgenic|hyper|mutants?)")
_SPECIES_CODES = r"(?:Hs|Mm|Rn|Sc|Sp|Dm|Dr|Ce|At|Tg|Pf|Xl|Gg|Kl|Ap|Mj|Tb|Ec)"
_WORD_START = r"(?<![A-Za-z0-9])"
GLUE_INFIXES: List[str] = [
    rf"(?<=[A-Za-z0-9][A-Z0-9])(?=(?:WT|KO|cKO|KI|wt|ko|pko|ki|fl|flox|lox|Tg|mut|hi|lo|null|Fl){_END})",  # Atg7fl/fl, Id1KO‐
    rf"(?<=[A-Za-z0-9]{{2}}[a-z0-9])(?=(?:WT|KO|{_REPORTERS}|{_CELLS}){_END})",  # Cx3cr1GFP, Atg5MEFs (not eGFP, cKO)
    rf"(?<=[A-Z0-9])(?={_GLUED_WORDS}{_END})",  # LC3mice‐, Sirt1protein, GFPliver
    rf"(?:(?<=mouse)|(?<=human)|(?<=patient)|(?<=zebrafish))(?={_GLUED_WORDS}{_END})",  # mouseskinfibroblasts→mouse|…, humanliver
    rf"(?<=[0-9a-z])(?=[ACDEFGHIKLMNPQRSTVWY][0-9]{{1,4}}[ACDEFGHIKLMNPQRSTVWY*]{_END})",  # SOD1G85R‐induced, dRagAQ61L
    rf"(?<=[A-Za-z][0-9])(?=I{{1,2}}{_END})",  # LC3II, LC3I (not 125I)
    r"(?:(?<=[A-Za-z][0-9]{3})|(?<=[A-Za-z][0-9]{4}))(?=[A-Z]{2,})",  # HCT116XIAP, H1299HA (not C57BL, 53BP1)
    rf"(?<={_WORD_START}p)(?!H(?:[4-9]|[0-9]\.))(?=[A-Z][A-Z0-9])",  # pS6RP, ‐pAKT, pH3 (not pH7, pH5.5)
    rf"(?<={_WORD_START}pr)(?=[A-Z][a-z]{{0,3}}[0-9])",  # prApe1 (precursor)
    rf"(?<={_WORD_START}[hm])(?!RNA|iR)(?=[A-Z][A-Za-z0-9]*[A-Z0-9]{_END})",  # RFP‐mAtg9, GFP‐hLC3
    rf"(?<={_WORD_START}{_SPECIES_CODES})(?=[A-Z][A-Za-z0-9]*[0-9A-Z]{_END})",  # HsAtg4B, ScAtg8, TgATG8
]


def customize_tokenizer(nlp: Language) -> Language:
    """Add the caption infix, suffix and prefix rules to `nlp.tokenizer` (idempotent).

    nlp (Language): The pipeline whose tokenizer gets the rules (spaCy's defaults of its language are kept).
    RETURNS (Language): The same `nlp`.
    """
    infixes = list(nlp.Defaults.infixes or [])
    suffixes = list(nlp.Defaults.suffixes or [])
    prefixes = list(nlp.Defaults.prefixes or [])
    nlp.tokenizer.infix_finditer = compile_infix_regex(EXTRA_INFIXES + GLUE_INFIXES + infixes).finditer
    nlp.tokenizer.suffix_search = compile_suffix_regex(EXTRA_SUFFIXES + suffixes).search
    nlp.tokenizer.prefix_search = compile_prefix_regex(EXTRA_PREFIXES + prefixes).search
    return nlp


@spacy.registry.callbacks("nseen_bio.bio_tokenizer.v1")
def make_bio_tokenizer_callback() -> Callable[[Language], Language]:
    """RETURNS (Callable[[Language], Language]): a `before_init` callback applying `customize_tokenizer`."""
    return customize_tokenizer
