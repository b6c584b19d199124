"""The character encoder: the torch module, its thinc layer, the character vocabulary, weights on disk."""
