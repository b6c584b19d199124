#!/usr/bin/env bash
# The code checks (run by .ci/run after the tests; docs/contributing.md): ruff's lint rules on the package and the
# tests, ruff's format check on the package, and mypy on the package (settings in pyproject.toml).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup_env.sh"
ruff check spacy_nseen tests
ruff format --check spacy_nseen
mypy
