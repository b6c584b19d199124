"""Linking strings to one reference set: settings, the signals and their fusion, build, storage (no spaCy)."""
