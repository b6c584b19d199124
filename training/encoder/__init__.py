"""Encoder step: train one Siamese encoder from a pair store (hard-negative rounds)."""
