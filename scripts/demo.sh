#!/usr/bin/env bash
# The README's main command: install, then run the demo workflow on the sample shipped in assets/sample
# (reference sets → pairs → encoders → NER → assembled pipeline → wheel, installed and checked).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup_env.sh"
# a log (output not a terminal) gets no ANSI colour codes from spaCy's and the steps' wasabi messages
if [ ! -t 1 ] || [ ! -t 2 ]; then export WASABI_LOG_FRIENDLY=1; fi
python -m spacy project run demo "$@"
