#!/usr/bin/env bash
# Installs everything the tests need (Chromium included) and runs the whole suite:
# lint, types, unit/property/server tests, real-browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the tests drive for real: Chromium (browser tests), PostgreSQL and nginx
# (the cluster tests start their own servers on loopback: no system service is used).
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || need+=(nginx-light)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
if [ "${#need[@]}" -gt 0 ]; then
  echo "== installing ${need[*]} (Debian packages)"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

echo "== installing the package with its test dependencies"
python3 -m pip install -q --disable-pip-version-check -e '.[test,postgres]'

echo "== ruff"
python3 -m ruff check app tests benchmarks
echo "== mypy --strict"
python3 -m mypy
# Each test folder imports its helpers as top-level modules (pytest puts the folder on
# sys.path), so each is checked with its own search path.
strict() { MYPYPATH="$1" python3 -m mypy --strict --explicit-package-bases "${@:2}"; }
strict tests/rules:tests tests/rules
strict tests/bots tests/bots
strict tests/rooms:tests tests/rooms
strict tests tests/e2e
strict tests:tests/rooms tests/*.py
strict tests/cluster:tests:tests/rooms:benchmarks tests/cluster
strict benchmarks:tests:tests/rooms benchmarks
echo "== pytest"
python3 -m pytest -q -p no:cacheprovider "$@"
