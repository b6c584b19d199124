#!/usr/bin/env bash
# Create (or reuse) the project's virtual environment in .venv and install everything into it.
# Sourced by scripts/demo.sh and scripts/test.sh. torch is pinned to the CPU build first: an unpinned
# torch may pull a multi-GB CUDA build.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${NSEEN_VENV:-$ROOT/.venv}"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
# shellcheck disable=SC1091
source "$VENV/bin/activate"
STAMP="$VENV/.nseen-installed"
if [ ! -f "$STAMP" ] || [ "$ROOT/setup.cfg" -nt "$STAMP" ]; then
    python -m pip install --quiet --upgrade pip
    python -m pip install --quiet "torch==2.13.0"
    python -m pip install --quiet -e "$ROOT[training,test,distributed,lint,serve]"
    touch "$STAMP"
fi
# the browser of the browser test (Debian's chromium + chromium-driver; skipped when installed)
bash "$ROOT/scripts/install_browser.sh"
cd "$ROOT"
export NSEEN_MIRROR="${NSEEN_MIRROR:-$ROOT/../shared/data}"
