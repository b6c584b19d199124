"""Helpers of the NER in the packaged pipeline (the statistical NER itself is spaCy's `ner`)."""

from .gazetteer import Gazetteer
from .glued_names import GluedNames
from .greek_suffixes import GreekSuffixes
from .name_features import NameFeatures
from .numbered_names import NumberedNames
from .protein_gene import ProteinGeneLabeler
from .repeated_mentions import RepeatedMentions

__all__ = [
    "Gazetteer",
    "GluedNames",
    "GreekSuffixes",
    "NameFeatures",
    "NumberedNames",
    "ProteinGeneLabeler",
    "RepeatedMentions",
]
