#!/usr/bin/env bash
# Builds the qd wheel (debug profile, sharing the workspace's target/debug artifacts) into a
# venv under target/, installs it, and runs the pytest suite. Safe to run again: the venv and
# its pinned packages are made once, cargo rebuilds only what changed.
#   python/run-tests.sh [PYTEST ARGS...]
# Ends with the plain line "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/python-venv
if [ ! -x "$VENV/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c 'import numpy, pytest' 2>/dev/null || [ ! -x "$VENV/bin/maturin" ]; then
    "$VENV/bin/pip" install -q -r python/requirements-test.txt
fi
rm -rf target/wheels/qd-*.whl
start=$(date +%s)
(cd python && "../$VENV/bin/maturin" build --profile dev --strip --compatibility linux --auditwheel skip -q -o ../target/wheels)
"$VENV/bin/pip" install -q --force-reinstall --no-deps target/wheels/qd-*.whl
echo "qd wheel built and installed in $(( $(date +%s) - start )) s"
log=$(mktemp)
status=0
# From the repository root with an installed qd: the tests import the wheel, not python/qd.
"$VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests "$@" 2>&1 | tee "$log" || status=$?
last=$(tail -n 1 "$log")
rm -f "$log"
passed=$(echo "$last" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || true)
failed=$(echo "$last" | grep -oE '[0-9]+ (failed|errors?)' | awk '{s += $1} END {print s + 0}' || true)
echo "${passed:-0} passed, ${failed:-0} failed"
exit $status
