"""Search structures over the reference names: Annoy, exact keys, character and word TF-IDF on one sparse core."""
