#!/usr/bin/env bash
# Installs everything the tests need (Chromium included) and runs the whole suite:
# lint, types, unit/property/server tests, real-browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the tests drive for real: Chromium's headless shell (browser tests,
# tests/chromium.py: the full browser is not needed), PostgreSQL and nginx
# (the cluster tests start their own servers on loopback: no system service is used),
# Prometheus (scrapes a real server's /metrics: tests/test_prometheus.py, again its own
# process, not the package's service), and Node.js for the client's type check and unit tests.
install_packages() {
  local need=()
  [ -x /usr/bin/chromium-headless-shell ] || need+=(chromium-headless-shell)
  command -v node >/dev/null && command -v npm >/dev/null || need+=(nodejs npm)
  [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || need+=(nginx-light)
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
  command -v prometheus >/dev/null || need+=(prometheus)
  [ "${#need[@]}" -gt 0 ] || return 0
  echo "== installing ${need[*]} (Debian packages)"
  local sudo="" tries=0
  [ "$(id -u)" = 0 ] || sudo="sudo"
  # apt waits for dpkg's lock when told to, but `apt-get update` gives up at once on the
  # package lists' lock: while another apt (not a copy of this script) holds it, try again.
  until $sudo apt-get update -qq; do
    tries=$((tries + 1))
    [ "$tries" -lt 60 ] || return 1
    sleep 5
  done
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    "${need[@]}" >/dev/null
}
# Two copies of this script started at once on a fresh machine (a busy run) take turns:
# the second finds the packages the first installed. The lock is opened for reading
# (flock needs no more), so another user's copy can take it too; whoever comes first
# creates it, readable by all.
lock=/tmp/amerikaner-test-packages.lock
[ -e "$lock" ] || ( umask 022; : >>"$lock" )
( flock 9; install_packages ) 9<"$lock"

# The checks that need no test server run beside the venv and pytest (below), not before:
# pytest mostly waits on servers, browsers and timers, so on two cores they cost it
# little and the whole run takes about their time less. Each writes to a file of its own,
# printed in order once pytest is done; a failed one fails the run.
checks=$(mktemp -d)
trap 'wait; rm -rf "$checks"' EXIT
check() {  # check NAME COMMAND...: COMMAND in the background, its output in $checks/NAME
  local name=$1; shift
  ( set +e; "$@" >"$checks/$name.out" 2>&1; echo $? >"$checks/$name.rc" ) &
}

# The browser client (app/static/js): TypeScript's checkJs over every module and Node's
# test runner over the pure ones (docs/client.md). node_modules holds exactly
# package-lock.json, installed anew by `npm ci` when the lock changes (a stamp, as venv.sh).
client_checks() {
  local stamp=node_modules/.amerikaner-lock want
  want="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
  if [ ! -d node_modules ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "== npm ci (package-lock.json)"
    npm ci --no-audit --no-fund --loglevel=error || return 1
    echo "$want" > "$stamp"
  fi
  echo "== tsc --noEmit (the client, its tests)"
  npx --no-install tsc --noEmit -p . || return 1
  npx --no-install tsc --noEmit -p tests/js || return 1
  echo "== node --test tests/js"
  node --test --test-reporter=dot tests/js/
}
check client client_checks

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

# The project's bytecode, written once (half a second): the tests start dozens of Python
# processes (`amerikaner serve`, the benchmarks, the commands), each importing the app,
# and where PYTHONDONTWRITEBYTECODE is set none writes it, so each compiled every module
# from source again: 0.4 s of a server's 2 s start (2026-12-05: launch to /healthz,
# tests/serve_process.py, an app/ with and without its bytecode, alternated). The
# packages' bytecode is written once, when scripts/venv.sh makes the environment.
"$py" -m compileall -q app tests benchmarks scripts >/dev/null

python_checks() {
  echo "== ruff"
  "$py" -m ruff check app tests benchmarks scripts || return 1
  echo "== mypy --strict (app, tests, benchmarks, scripts: one run, pyproject.toml)"
  "$py" -m mypy
}
check python python_checks
echo "== client checks (npm ci, tsc, node --test), ruff and mypy: running beside pytest"

echo "== pytest"
# Three workers, a test file each at a time (module fixtures, one Chromium a browser
# file): most of the suite waits on servers, browsers and timers, not on the CPU. With two
# workers the suite's own processes kept about 1.1 of 2 cores busy on average (2026-12-05,
# `time .ci/run`: 9 min 46 s, of which pytest 8 min 54 s, for 9 min 18 s user and 1 min
# 10 s system CPU), so a third worker runs in the waits; a fourth made the tests contend
# for the CPU instead (2026-12-05, the same fresh clone and suite, quiet: pytest 8 min 31 s
# with four, 8 min 15 s with three). AMERIKANER_TEST_WORKERS sets the number; 0 runs in
# one process.
# Files go to the workers in tests/conftest.py's order, the longest first
# (--no-loadscope-reorder: xdist would order them by their number of tests, and a long
# file of one test came last, alone).
set +e
"$py" -m pytest -q -p no:cacheprovider -n "${AMERIKANER_TEST_WORKERS:-3}" --dist loadfile \
  --no-loadscope-reorder "$@"
status=$?
wait
set -e
for name in client python; do
  cat "$checks/$name.out"
  if [ "$(cat "$checks/$name.rc" 2>/dev/null)" != 0 ]; then
    echo "== FAILED: the $name checks (above)" >&2
    status=1
  fi
done
exit "$status"
