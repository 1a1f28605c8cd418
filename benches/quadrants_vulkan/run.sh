#!/usr/bin/env bash
# qd (device vulkan) and Quadrants 1.3.3 (arch=vulkan, adstack) side by side, on lavapipe: the
# same four kernels as benches/quadrants_cpu, whose bench.py this one imports. Makes the Python
# venv (target/quadrants-venv, shared with quadrants_cpu), builds qd-run in release, pins both
# systems to lavapipe (VK_DRIVER_FILES; set it beforehand to use another driver), then runs
# bench.py, which prints the table. Arguments go to bench.py (--repeat N, --rounds N, --only abcd).
# Exit status 1 when a gradient check fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/target/quadrants-venv"
py="$venv/bin/python"
if ! "$py" -c 'import quadrants, numpy, importlib.metadata as m; assert m.version("quadrants") == "1.3.3"' 2>/dev/null; then
    python3 -m venv "$venv"
    "$py" -m pip install --quiet --disable-pip-version-check 'quadrants==1.3.3' numpy
fi
(cd "$root" && cargo build --release --quiet -p qd-run)
export VK_DRIVER_FILES="${VK_DRIVER_FILES:-/usr/share/vulkan/icd.d/lvp_icd.x86_64.json}"
exec "$py" "$root/benches/quadrants_vulkan/bench.py" --qd-run "$root/target/release/qd-run" "$@"
