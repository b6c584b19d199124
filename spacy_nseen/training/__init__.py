"""Training-only code (pairs, the soft contrastive loss, the Siamese trainer): imported by the
`train-encoder` command and `training/`, never by the component."""
