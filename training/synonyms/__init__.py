"""Synonym discovery step: synonym pairs of the reference sets, the SynonymNet model, its evaluations."""
