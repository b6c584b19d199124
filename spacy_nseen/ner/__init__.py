"""Helpers of the NER in the packaged pipeline (the statistical NER itself is spaCy's `ner`)."""
from .gazetteer import Gazetteer

__all__ = ["Gazetteer"]
