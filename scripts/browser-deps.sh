#!/usr/bin/env bash
# Debian's Chromium (driven by Playwright; never a browser download): its headless shell
# for the browser tests and the full browser for scripts/screenshots.py; poppler-utils
# (pdftoppm, for the PDF tests) and a Japanese font for Chromium (the pages in 日本語),
# installed when missing.
set -euo pipefail
missing=()
command -v chromium-headless-shell >/dev/null || missing+=(chromium-headless-shell)
command -v chromium >/dev/null || missing+=(chromium)
command -v pdftoppm >/dev/null || missing+=(poppler-utils)
[ -e /usr/share/fonts/opentype/ipafont-gothic ] || missing+=(fonts-ipafont-gothic)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "browser-deps: install ${missing[*]} (Debian packages) to run the browser tests" >&2
    exit 1
  fi
  echo "browser-deps: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
