#!/usr/bin/env bash
# Install mindtable with its test tools into .venv and run every check: lint, types, tests.
# Browser tests need Debian's Chromium; as root on Debian this installs it when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev,cluster,rl]'  # Ray (simulate --backend ray), PettingZoo, Gymnasium, OpenSpiel
# The example plugin, a separate package: the suite runs with it installed, as it must with any plugin.
.venv/bin/python -m pip install --quiet --no-deps -e examples/stepping-stones

if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing Debian's chromium for the browser tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

echo "== ruff"
.venv/bin/ruff check mindtable tests benchmarks examples
.venv/bin/ruff format --check mindtable tests benchmarks examples
echo "== mypy"
.venv/bin/mypy
.venv/bin/mypy examples/stepping-stones/stepping_stones
echo "== pytest"
# Two workers (pytest-xdist): the machine has two cores; "-n 0" (or any -n) given to this script wins.
.venv/bin/pytest -n 2 "$@"
