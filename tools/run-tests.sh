#!/usr/bin/env bash
# Runs every test: formatting, clippy, Rust unit/integration tests, the whole lit suite (which
# `cargo test` runs through tools/qd-opt/tests/lit.rs) and the Python package's pytest suite.
# Installs what it needs first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tools/setup.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
# MLIR interop (melior, feature `mlir`): the mlir-cpu device and qd-translate --emit/--import=mlir.
# Only the three crates that wire it in link MLIR; the rest of the workspace is tested without it.
MLIR_FEATURES=qd-devices/mlir,qd-run/mlir,qd-translate/mlir
cargo clippy -p qd-mlir -p qd-devices -p qd-run -p qd-translate --all-targets \
    --features "$MLIR_FEATURES" --quiet -- -D warnings
# qd-translate's MLIR lit tests call the qd-opt and qd-run binaries: build them first.
cargo build -p qd-opt -p qd-run -p qd-translate --features qd-run/mlir,qd-translate/mlir
cargo test -p qd-devices -p qd-run -p qd-translate --features "$MLIR_FEATURES"
cargo test --workspace --exclude qd-devices --exclude qd-run --exclude qd-translate
# The Python package: a debug wheel into target/python-venv, then pytest.
python/run-tests.sh
