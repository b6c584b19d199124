"""Organism evidence in a text: species words, primary cells and cell lines, with sentence bounds.

`TextEvidence.from_text` scans a text once; the assigner then reads, for each mention, which hits are
next to it, in its sentence, or anywhere in the text.
"""

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

from .cell_lines import CellLineTable
from .lexicon import (
    EITHER_YEAST_WORDS,
    FISSION_YEAST,
    GRAFT_HOSTS,
    GRAFT_WORDS,
    YEAST,
    YEAST_DELETION,
    SpeciesHit,
    find_species_words,
)

# A sentence ends at . ! ? ; followed by a space, and a caption panel starts at "(A) ", "B, " ...
_SENTENCE_BREAK = re.compile(r"(?<=[.!?;])\s+(?=\S)|\s(?=\([A-Za-z](?:[-–,][A-Za-z])*\)\s)")
_WORD = re.compile(r"[^\W_]+")
_NEAR_BLOCKER = re.compile(r"[.;:!?]")
SPECIES_WORD_LABEL = "word "  # how `find_species_words` labels a species word (`word 'mouse'`)
# the words that join species words qualifying one noun (`human and the rat VPAC1`): conjunctions and determiners
_CONJUNCTIONS = frozenset({"and", "or", "but", "not", "versus", "vs", "the", "a", "an", "both", "either"})


@dataclass
class TextEvidence:
    """The organism hits of one text and its sentence starts.

    hits (List[SpeciesHit]): Species words, primary cells and cell lines (cell line hits carry the
        strength given at scan time and a label "cell line 'HeLa'"), in text order.
    sentence_starts (List[int]): Character offset of each sentence start (first is 0).
    hit_sentences (List[int]): Sentence index of each hit (computed if not given).
    """

    text: str
    hits: List[SpeciesHit]
    sentence_starts: List[int]
    hit_sentences: List[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.hit_sentences) != len(self.hits):
            self.hit_sentences = [self.sentence_of(h.start) for h in self.hits]

    @classmethod
    def from_text(
        cls,
        text: str,
        cell_lines: Optional[CellLineTable] = None,
        skip: Sequence[Tuple[int, int]] = (),
        cell_line_strength: float = 1.0,
        ambiguous_cell_line_strength: float = 0.5,
        graft_host_strength: float = 1.0,
    ) -> "TextEvidence":
        """Scan a text.

        skip (Sequence[Tuple[int, int]]): Ranges not read as cell lines (the protein mentions).
        cell_line_strength (float): Strength of a cell line of one species; an ambiguous name
            (several species) gets `ambiguous_cell_line_strength` for its most frequent species.
        graft_host_strength (float): Factor on the strength of the mouse and rat words of a text that speaks of
            grafted tumours (`GRAFT_WORDS`: `xenografts in nude mice`): hosts, not the proteins' organism.
            Their cell lines and genotypes keep their strength (`4T1 tumour-bearing mice` are mouse).
        """
        hits = list(find_species_words(text))
        if graft_host_strength != 1.0 and GRAFT_WORDS.search(text):
            hits = [graft_host(h, graft_host_strength) for h in hits]
        if cell_lines is not None:
            taken = [(h.start, h.end) for h in hits] + list(skip)
            for c in cell_lines.find(text, skip=taken):
                strength = ambiguous_cell_line_strength if c.ambiguous else cell_line_strength
                hits.append(SpeciesHit(c.start, c.end, c.taxa[0], strength, f"cell line '{c.text}'"))
        hits.sort(key=lambda h: (h.start, h.end))
        starts = [0] + [m.end() for m in _SENTENCE_BREAK.finditer(text)]
        return cls(text, hits, starts)

    def named_taxa(self) -> Set[int]:
        """RETURNS (Set[int]): the taxa a word, cell line or genotype of the text names, left out what does not tell
        budding from fission yeast (yeast deletions, the bare word `yeast`)."""
        return {h.taxon for h in self.hits if not self.either_yeast(h)}

    def either_yeast(self, hit: SpeciesHit) -> bool:
        """Whether a budding yeast hit is one that fission yeast papers write too: a deletion (`red1Δ`) or the
        bare word `yeast`/`yeasts`."""
        return hit.taxon == YEAST and (
            hit.label.startswith(YEAST_DELETION) or self.text[hit.start : hit.end].lower() in EITHER_YEAST_WORDS
        )

    def names_fission_yeast(self) -> bool:
        """Whether the text names fission yeast (`S. pombe`, `fission yeast`, an allele `ura4+`) and nothing that only
        budding yeast is (`S. cerevisiae`)."""
        named = self.named_taxa()
        return FISSION_YEAST in named and YEAST not in named

    def in_fission_yeast(self) -> "TextEvidence":
        """RETURNS (TextEvidence): the same hits, the yeast deletions (`red1Δ`) and the word `yeast` counted for
        fission yeast."""
        hits = [
            SpeciesHit(h.start, h.end, FISSION_YEAST, h.strength, h.label) if self.either_yeast(h) else h
            for h in self.hits
        ]
        return TextEvidence(self.text, hits, self.sentence_starts, self.hit_sentences)

    def sentence_of(self, offset: int) -> int:
        """RETURNS (int): Index of the sentence holding a character offset."""
        return bisect_right(self.sentence_starts, offset) - 1

    def counts(self) -> Dict[int, float]:
        """RETURNS (Dict[int, float]): Sum of hit strengths per taxon over the whole text (hits of strength 0, such
        as the hosts of a graft, name no organism)."""
        out: Dict[int, float] = {}
        for h in self.hits:
            if h.strength > 0:
                out[h.taxon] = out.get(h.taxon, 0.0) + h.strength
        return out

    def is_near(self, hit: SpeciesHit, start: int, end: int, max_words: int) -> bool:
        """Whether a hit qualifies a mention at [start, end): inside it, at most `max_words` words
        before it in the same clause (`mouse Trp53`, `human and mouse p53`), or right after it in
        parentheses (`p53 (mouse)`)."""
        if hit.start >= start and hit.end <= end:
            return True
        if hit.end <= start:
            between = self.text[hit.end : start]
            return not _NEAR_BLOCKER.search(between) and len(_WORD.findall(between)) <= max_words
        if hit.start >= end:
            between = self.text[end : hit.start]
            return between.strip() in ("(", "[", "-", ",")
        return False


def nearest_qualifiers(evidence: TextEvidence, near: Sequence[SpeciesHit], start: int) -> List[SpeciesHit]:
    """RETURNS (List[SpeciesHit]): the hits of `near` (all `is_near` a mention starting at `start`, in text order)
    that qualify it. The species words before the mention are read back from the nearest: words joined by
    conjunctions, determiners or commas qualify it together (`human, mouse and rat Egr1`, `the human and the rat
    VPAC1`); a species word separated from the next one by other words qualifies another noun and is left out, with
    every word before it (`mouse` for the second `Notch` of `mouse Notch1 and Drosophila Notch`; `human` in `the
    human homolog of yeast Enp1`). Cell lines are hosts, not qualifiers: they are kept and never shadow a word
    (`human CD80 (CHO-CD80)`)."""
    words = [h for h in near if h.end <= start and h.label.startswith(SPECIES_WORD_LABEL)]
    cut = 0  # the species words that end before this offset qualify another noun
    for before, after in zip(reversed(words[:-1]), reversed(words[1:])):  # the gaps, read from the mention back
        if _qualifies_other_noun(evidence.text[before.end : after.start]):
            cut = after.start
            break
    return [h for h in near if not (h.end <= cut and h.label.startswith(SPECIES_WORD_LABEL))]


def _qualifies_other_noun(between: str) -> bool:
    """Whether the text between two organism words holds a word other than a conjunction or determiner (`and`,
    `or`, `vs`, `the`: `the human and the rat VPAC1` names both)."""
    return any(word.lower() not in _CONJUNCTIONS for word in _WORD.findall(between))


def graft_host(hit: SpeciesHit, strength: float) -> SpeciesHit:
    """RETURNS (SpeciesHit): a mouse or rat word's hit with its strength multiplied by `strength` and its label
    saying why; any other hit unchanged."""
    if hit.taxon not in GRAFT_HOSTS or not hit.label.startswith("word "):
        return hit
    return SpeciesHit(hit.start, hit.end, hit.taxon, hit.strength * strength, f"{hit.label} (host of a graft)")
