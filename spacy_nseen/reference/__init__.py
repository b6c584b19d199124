"""Reference sets: entities, names, kinds, taxa, cross-references, names files."""
