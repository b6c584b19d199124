"""Training workflow of spacy_nseen: fetch data, build reference sets, make pairs, train, evaluate."""
