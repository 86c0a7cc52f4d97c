#!/usr/bin/env bash
# The Debian packages a need of the project's calls for, the missing ones installed in ONE
# apt-get step. Every recipe that installs packages calls this script, and only before the
# jobs it runs in parallel: two apt-gets at once fail on dpkg's lock (`make test` on a bare
# machine did, until this script was its only installer). The lock is also waited for,
# in case something else (an unattended upgrade) holds it.
#
# Usage: scripts/debian-packages.sh NEED...
#   services  PostgreSQL and Redis, for the test suite, the fuzz runs and the benchmarks
#   browser   Debian's Chromium (its headless shell for the browser tests, the full browser
#             for scripts/screenshots.py; Playwright drives them, never a browser download),
#             poppler-utils (pdftoppm, for the PDF tests) and a Japanese font for Chromium
# `make demo` and `make docs` need none of them (SQLite, eager tasks, MkDocs from PyPI).
set -euo pipefail

missing=()
need() { missing+=("$1"); }
pg_initdb() { ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | head -n 1; }

for what in "$@"; do
  case "$what" in
    services)
      [ -n "$(pg_initdb)" ] || need postgresql
      command -v redis-server >/dev/null && command -v redis-cli >/dev/null || need redis-server
      ;;
    browser)
      command -v chromium-headless-shell >/dev/null || need chromium-headless-shell
      command -v chromium >/dev/null || need chromium
      command -v pdftoppm >/dev/null || need poppler-utils
      [ -e /usr/share/fonts/opentype/ipafont-gothic ] || need fonts-ipafont-gothic
      ;;
    *)
      echo "debian-packages: unknown need '$what' (services, browser)" >&2
      exit 2
      ;;
  esac
done

[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "debian-packages: missing ${missing[*]}; as root: apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "debian-packages: installing ${missing[*]}"
lock=(-o DPkg::Lock::Timeout=600)
apt-get "${lock[@]}" update -qq
DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -qq "${missing[@]}" >/dev/null
