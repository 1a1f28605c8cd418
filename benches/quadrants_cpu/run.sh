#!/usr/bin/env bash
# qd (device cpu) and Quadrants 1.3.3 (arch=cpu, adstack) side by side on this machine: makes the
# Python venv (target/quadrants-venv: quadrants==1.3.3 and numpy from PyPI; kept between runs),
# builds qd-run in release, then runs bench.py, which prints the table. Arguments go to bench.py
# (--repeat N, --rounds N, --only abcd, --no-threads; see README.md). Exit status 1 when a gradient
# check fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/target/quadrants-venv"
py="$venv/bin/python"
if ! "$py" -c 'import quadrants, numpy, importlib.metadata as m; assert m.version("quadrants") == "1.3.3"' 2>/dev/null; then
    python3 -m venv "$venv"
    "$py" -m pip install --quiet --disable-pip-version-check 'quadrants==1.3.3' numpy
fi
(cd "$root" && cargo build --release --quiet -p qd-run)
exec "$py" "$root/benches/quadrants_cpu/bench.py" --qd-run "$root/target/release/qd-run" "$@"
