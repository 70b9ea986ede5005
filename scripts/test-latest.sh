#!/usr/bin/env bash
# Runs the whole suite against the newest release of every dependency, upper bounds of
# pyproject.toml lifted, in a throw-away virtual environment (not in CI):
#
#   bash scripts/test-latest.sh [pytest options]
#
# It prints what differs from requirements/test.txt first, so a failure reads as a list
# of upgrades to look at. The lock and .venv are left as they are. docs/operations.md
# ("Dependencies") records what the last run found.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d /tmp/amerikaner-latest.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
py="$tmp/venv/bin/python"
# pyproject's declarations with every upper bound dropped: the newest releases, not the
# newest the ranges allow
python3 - "$tmp/latest.in" <<'PY'
import re, sys, tomllib
data = tomllib.load(open("pyproject.toml", "rb"))
reqs = data["project"]["dependencies"] + data["build-system"]["requires"]
for extra in ("test", "postgres"):
    reqs += data["project"]["optional-dependencies"][extra]
out = []
for req in reqs:
    name, _, spec = re.match(r"([A-Za-z0-9_.\-\[\]]+)(.*)", req).group(1, 0, 2)
    keep = [s.strip() for s in spec.split(",") if s.strip().startswith((">", "!"))]
    out.append(name + ",".join(keep))
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
echo "== newest releases of: $(tr '\n' ' ' < "$tmp/latest.in")"
"$py" -m pip install -q --disable-pip-version-check --upgrade pip
"$py" -m pip install -q --disable-pip-version-check --upgrade -r "$tmp/latest.in"
"$py" -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
echo "== upgrades against requirements/test.txt (package: locked -> newest)"
"$py" - <<'PY'
import importlib.util
from importlib.metadata import distributions
spec = importlib.util.spec_from_file_location("lock", "scripts/lock.py")
lock = importlib.util.module_from_spec(spec); spec.loader.exec_module(lock)
from pathlib import Path
pins = lock.pinned(Path("requirements/test.txt"))
for dist in sorted(distributions(), key=lambda d: d.metadata["Name"].lower()):
    name = dist.metadata["Name"].lower().replace("_", "-").replace(".", "-")
    if name in ("amerikaner", "pip"):
        continue
    if pins.get(name) != dist.version:
        print(f"  {name}: {pins.get(name, '(not locked)')} -> {dist.version}")
PY
AMERIKANER_TEST_VENV="$tmp/venv" AMERIKANER_UNLOCKED=1 bash scripts/test.sh "$@"
