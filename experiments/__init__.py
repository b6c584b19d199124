"""One-off measurements behind figures in `results/` (experiments/README.md lists each with its results), kept so
that they can be rerun: `python -m experiments.NAME ...` from the repository root. Not steps of project.yml and
not part of the installed package; their tests run with `python -m pytest -m experiment tests/experiments`."""
