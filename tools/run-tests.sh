#!/usr/bin/env bash
# Runs every test: formatting, clippy, Rust unit/integration tests, the whole lit suite (which
# `cargo test` runs through tools/qd-opt/tests/lit.rs) and the Python package's pytest suite.
# Installs what it needs first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tools/setup.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo test --workspace
# The Python package: a debug wheel into target/python-venv, then pytest.
python/run-tests.sh
