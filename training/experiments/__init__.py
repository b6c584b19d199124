"""One-off measurements behind figures in `results/*.md`, kept so that they can be rerun (`python -m
training.experiments.<name> ...` from the repository root, as each results file says); not steps of project.yml."""
