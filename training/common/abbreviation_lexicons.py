"""Abbreviation lexicons given to the evaluation and tuning commands, one per half of the documents.

A lexicon mined from the even-numbered articles is used on the odd-numbered ones and the other way round
(`--abbreviation-lexicon odd=LEXICON_OF_EVEN --abbreviation-lexicon even=LEXICON_OF_ODD`), so that no article is
linked with definitions read from its own captions beyond what `nseen_linker` reads from the article itself.
"""
from typing import List, Optional, Sequence, Tuple

from spacy_nseen.text.abbreviation_lexicon import AbbreviationLexicon
from training.common.bioid import DOCUMENT_HALVES, in_document_half

LexiconSpecs = List[Tuple[str, AbbreviationLexicon]]
SPEC_HELP = ("[DOCUMENTS=]PATH: an abbreviation lexicon (training.data.build_abbreviations) for the mentions of those "
             "documents (all, even or odd; default all) that their article does not define; e.g. odd=LEXICON_OF_EVEN "
             "for a half with a lexicon mined from the other (repeatable; the first that applies is used)")


def read_lexicon_specs(specs: Sequence[str]) -> LexiconSpecs:
    """RETURNS (LexiconSpecs): (documents half, lexicon) per `[DOCUMENTS=]PATH` spec.

    A half that is not all/even/odd raises ValueError; a bad file raises `ArtifactError` naming it.
    """
    out: LexiconSpecs = []
    for spec in specs:
        half, sep, path = spec.partition("=")
        if not sep:
            half, path = "all", spec
        elif half not in DOCUMENT_HALVES:
            raise ValueError(f"--abbreviation-lexicon {spec!r}: the documents must be one of {DOCUMENT_HALVES}")
        out.append((half, AbbreviationLexicon.from_disk(path)))
    return out


def lexicon_for_document(specs: LexiconSpecs, pmc_id: str) -> Optional[AbbreviationLexicon]:
    """RETURNS (Optional[AbbreviationLexicon]): the first lexicon whose half holds the document, or None."""
    for half, lexicon in specs:
        if in_document_half(pmc_id, half):
            return lexicon
    return None
