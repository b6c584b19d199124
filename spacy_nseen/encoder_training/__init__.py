"""Training the encoder (NSEEN §3.1): the name pairs, the soft contrastive loss and the Siamese trainer.

Named apart from the repository's top-level `training/` (the project's workflow scripts, which use it).
Imported by the `train-encoder` command and `training/`, never by the component."""
