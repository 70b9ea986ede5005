#!/usr/bin/env bash
# Installs the server from the lock and starts it, on a machine with only Python 3.11:
#
#   bash scripts/serve.sh [amerikaner serve options]     # http://127.0.0.1:8000
#
# The server gets a virtual environment of its own, .venv-serve, holding exactly
# requirements/serve.txt (runtime and the `postgres` extra, hashes checked) and the
# project; a second start reuses it (scripts/venv.sh). Other commands are there too:
# .venv-serve/bin/amerikaner replay FILE, .venv-serve/bin/amerikaner simulate ...
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/venv.sh .venv-serve requirements/serve.txt
exec .venv-serve/bin/amerikaner serve "$@"
