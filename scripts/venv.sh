#!/usr/bin/env bash
# Makes (or reuses) a virtual environment holding exactly one lock of requirements/:
#
#   bash scripts/venv.sh DIR LOCK [--editable]
#
# DIR gets the locked versions with their hashes checked (`pip install --require-hashes`),
# then the project itself without its dependencies and without build isolation (the
# build backend is in the lock too), so nothing unlocked is installed. A stamp holds the
# digest of the lock and of this script: when neither changed the environment is reused
# as it is (a second run takes a second); when one did, DIR is made anew, never patched,
# so a package dropped from the lock is gone from the environment too.
set -euo pipefail
dir=$1 lock=$2 mode=${3:-}
root="$(cd "$(dirname "$0")/.." && pwd)"
py=${PYTHON:-python3}
stamp="$dir/.amerikaner-lock"
want="$(cat "$root/$lock" "$0" | sha256sum | cut -d' ' -f1) $mode"
if [ -x "$dir/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  # the project's own metadata can change without the lock (a new console script)
  if [ "$mode" != "--editable" ]; then
    "$dir/bin/python" -m pip install -q --no-deps --no-build-isolation --no-index "$root"
  fi
  exit 0
fi
echo "== making $dir from $lock"
rm -rf "$dir"
"$py" -m venv "$dir"
# The machine's pip settings may add indexes or local wheel folders: the hashes in the
# lock decide which files are accepted, wherever they come from.
"$dir/bin/python" -m pip install -q --disable-pip-version-check --require-hashes \
  --no-deps -r "$root/$lock"
if [ "$mode" = "--editable" ]; then
  "$dir/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
    --no-build-isolation --no-index -e "$root"
else
  "$dir/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
    --no-build-isolation --no-index "$root"
fi
# pip check: the lock is complete (every requirement of every package is in it)
"$dir/bin/python" -m pip check >/dev/null
echo "$want" > "$stamp"
