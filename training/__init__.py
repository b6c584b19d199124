"""Training workflow of spacy_nseen: fetch data, build reference sets, make pairs, train, evaluate; one sub-package
per step of project.yml (docs/ARCHITECTURE.md, "training/: the workflow's code, by step")."""
