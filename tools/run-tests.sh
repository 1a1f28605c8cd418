#!/usr/bin/env bash
# Runs every test: formatting, clippy, Rust unit/integration tests and the whole lit suite (which
# `cargo test` runs through tools/qd-opt/tests/lit.rs). Installs what it needs first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tools/setup.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo test --workspace
