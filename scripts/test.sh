#!/usr/bin/env bash
# The README's test command: install, then run the whole test suite (slow tests included).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup_env.sh"
python -m pytest -q "$@"
