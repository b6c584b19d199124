"""Pairs step: labelled name pairs (NSEEN §3.1) and the pair store."""
