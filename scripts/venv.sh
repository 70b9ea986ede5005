#!/usr/bin/env bash
# Makes (or reuses) a virtual environment holding exactly one lock of requirements/:
#
#   bash scripts/venv.sh DIR LOCK [--editable]
#
# DIR gets the locked versions with their hashes checked (`--require-hashes`), then the
# project itself without its dependencies and without build isolation (the build backend
# is in the lock too), so nothing unlocked is installed. A stamp holds the digest of the
# lock, of the installer's lock and of this script: when none changed the environment is
# reused as it is (a second run takes a second); when one did, DIR is made anew, never
# patched, so a package dropped from the lock is gone from the environment too.
#
# The installer is uv, pinned with its hashes in requirements/uv.txt and put once by pip
# into .uv/ beside the checkout: it installs requirements/test.txt in about 5 s where pip
# took 37 to 44 s (2026-12-05, an empty cache each, a fresh venv, the machine loaded by
# the suite's helpers), the largest part of the test command's time before pytest. The
# locks stay pip's format: `pip install --require-hashes` (the Dockerfile) reads them.
set -euo pipefail
dir=$1 lock=$2 mode=${3:-}
root="$(cd "$(dirname "$0")/.." && pwd)"
py=${PYTHON:-python3}
stamp="$dir/.amerikaner-lock"
want="$(cat "$root/$lock" "$root/requirements/uv.txt" "$0" | sha256sum | cut -d' ' -f1) $mode"
if [ -x "$dir/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  # the project's own metadata can change without the lock (a new console script)
  if [ "$mode" != "--editable" ]; then
    "$dir/bin/python" -m pip install -q --no-deps --no-build-isolation --no-index "$root"
  fi
  exit 0
fi
echo "== making $dir from $lock"
uv_dir="$root/.uv" uv_want="$(sha256sum < "$root/requirements/uv.txt" | cut -d' ' -f1)"
if [ ! -x "$uv_dir/bin/uv" ] || [ "$(cat "$uv_dir/.lock" 2>/dev/null)" != "$uv_want" ]; then
  rm -rf "$uv_dir"
  "$py" -m pip install -q --disable-pip-version-check --root-user-action=ignore \
    --require-hashes --no-deps --target "$uv_dir" -r "$root/requirements/uv.txt"
  echo "$uv_want" > "$uv_dir/.lock"
fi
uv=("$uv_dir/bin/uv" pip install --quiet --python "$dir/bin/python")
rm -rf "$dir"
"$py" -m venv "$dir"
# The hashes in the lock decide which files are accepted, wherever they come from.
# --compile-bytecode writes the packages' bytecode now (3 to 4 s): where
# PYTHONDONTWRITEBYTECODE is set no process writes it, so each Python process the tests
# start (servers, search workers, commands) compiled FastAPI, Pydantic and the rest from
# source again: a server's start took 1.5 s of CPU, 1.0 s with it (2026-12-08, launch to
# /healthz, a fresh clone's test venv, 4 starts each).
"${uv[@]}" --require-hashes --no-deps --compile-bytecode -r "$root/$lock"
if [ "$mode" = "--editable" ]; then
  "${uv[@]}" --no-deps --no-build-isolation -e "$root"
else
  "${uv[@]}" --no-deps --no-build-isolation "$root"
fi
# pip check: the lock is complete (every requirement of every package is in it)
"$dir/bin/python" -m pip check >/dev/null
echo "$want" > "$stamp"
