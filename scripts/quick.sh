#!/usr/bin/env bash
# The inner loop: ruff, then the engine's, the room core's, the bots' and the protocol's
# tests, in two workers, with no server process, no browser and no database:
#
#   bash scripts/quick.sh [PYTEST ARGS...]
#
# Uses the environment scripts/test.sh (or `bash scripts/venv.sh .venv requirements/test.txt
# --editable`) made. Property tests try a tenth of their examples (tests/example_budget.py)
# and the tests marked `slow` are left out: scripts/test.sh runs them all, in full.
set -euo pipefail
cd "$(dirname "$0")/.."
py=.venv/bin/python
if [ ! -x "$py" ]; then
  echo "no .venv: run bash scripts/test.sh once, or bash scripts/venv.sh .venv requirements/test.txt --editable" >&2
  exit 2
fi
echo "== ruff"
"$py" -m ruff check app tests benchmarks scripts
echo "== pytest (quick: engine, room core, bots, protocol)"
export AMERIKANER_QUICK=1
# test_contract's one served schema needs a server: the whole suite checks it.
"$py" -m pytest -q -p no:cacheprovider -n "${AMERIKANER_TEST_WORKERS:-2}" -m "not slow" \
  --deselect tests/rooms/test_contract.py::test_the_schema_is_served \
  tests/rules tests/bots \
  tests/rooms/test_core_*.py tests/rooms/test_hint_review.py tests/rooms/test_late_joiner.py \
  tests/rooms/test_earlier_reviews.py tests/rooms/test_lease_cache.py \
  tests/rooms/test_settings.py tests/rooms/test_contract.py \
  tests/test_protocol_doc.py tests/test_spec_copies.py tests/test_text.py \
  tests/test_rules_example.py tests/test_bounded_json.py "$@"
