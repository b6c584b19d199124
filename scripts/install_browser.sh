#!/usr/bin/env bash
# Debian's chromium and chromium-driver for the browser test (tests/service/test_browser.py), called by
# scripts/setup_env.sh. Idempotent: nothing is done when both are installed. Where they cannot be installed (not
# root, no apt-get, no network) it says so and goes on: the browser test then skips, naming what is missing.
# NSEEN_SKIP_BROWSER=1 skips the install.
set -uo pipefail
if [ "${NSEEN_SKIP_BROWSER:-0}" = "1" ]; then
    exit 0
fi
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != "0" ]; then
    echo "install_browser: not root or no apt-get: the browser test will skip (install chromium and chromium-driver)" >&2
    exit 0
fi
echo "install_browser: apt-get install chromium chromium-driver" >&2
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        chromium chromium-driver >/dev/null; }; then
    echo "install_browser: the install failed: the browser test will skip" >&2
fi
exit 0
