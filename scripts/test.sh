#!/usr/bin/env bash
# Installs everything the tests need (Chromium included) and runs the whole suite:
# lint, types, unit/property/server tests, real-browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the tests drive for real: Chromium (browser tests), PostgreSQL and nginx
# (the cluster tests start their own servers on loopback: no system service is used),
# Prometheus (scrapes a real server's /metrics: tests/test_prometheus.py, again its own
# process, not the package's service), and Node.js for the client's type check and unit tests.
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v node >/dev/null && command -v npm >/dev/null || need+=(nodejs npm)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || need+=(nginx-light)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
command -v prometheus >/dev/null || need+=(prometheus)
if [ "${#need[@]}" -gt 0 ]; then
  echo "== installing ${need[*]} (Debian packages)"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# A virtual environment of the suite's own, holding exactly requirements/test.txt (the
# lock) and the project, made anew when the lock changes: whatever the machine already
# has installed is never used (scripts/venv.sh).
# scripts/test-latest.sh hands over an environment of the newest releases instead.
if [ -z "${AMERIKANER_UNLOCKED:-}" ]; then
  VENV=.venv
  bash scripts/venv.sh "$VENV" requirements/test.txt --editable
else
  VENV=$AMERIKANER_TEST_VENV
fi
py="$VENV/bin/python"
# Subprocesses the tests start (`amerikaner serve`, python3) come from it as well.
VIRTUAL_ENV="$(cd "$VENV" && pwd)"; export VIRTUAL_ENV; export PATH="$VIRTUAL_ENV/bin:$PATH"

# The browser client (app/static/js): TypeScript's checkJs over every module and Node's
# test runner over the pure ones (docs/client.md). node_modules holds exactly
# package-lock.json, installed anew by `npm ci` when the lock changes (a stamp, as venv.sh).
stamp=node_modules/.amerikaner-lock
want="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
if [ ! -d node_modules ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "== npm ci (package-lock.json)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
echo "== tsc --noEmit (the client, its tests)"
npx --no-install tsc --noEmit -p .
npx --no-install tsc --noEmit -p tests/js
echo "== node --test tests/js"
node --test --test-reporter=dot tests/js/

echo "== ruff"
"$py" -m ruff check app tests benchmarks scripts
echo "== mypy --strict (app, tests, benchmarks, scripts: one run, pyproject.toml)"
"$py" -m mypy
echo "== pytest"
# Two workers, a test file each at a time (module fixtures, one Chromium a browser file):
# most of the suite waits on servers, browsers and timers, not on the CPU, so two
# workers halve the time even on two cores. AMERIKANER_TEST_WORKERS=0 runs in one process.
# Files go to the workers in tests/conftest.py's order, the longest first
# (--no-loadscope-reorder: xdist would order them by their number of tests, and a long
# file of one test came last, alone).
"$py" -m pytest -q -p no:cacheprovider -n "${AMERIKANER_TEST_WORKERS:-2}" --dist loadfile \
  --no-loadscope-reorder "$@"
