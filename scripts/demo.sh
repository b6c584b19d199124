#!/usr/bin/env bash
# The README's main command: install, then run the demo workflow on the sample shipped in assets/sample
# (reference sets → pairs → encoders → NER → assembled pipeline → wheel, installed and checked).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup_env.sh"
python -m spacy project run demo "$@"
