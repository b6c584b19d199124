"""Linker step: linker directories from a trained encoder, and the NIL decision trained from the reference sets."""
