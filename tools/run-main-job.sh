#!/usr/bin/env bash
# The main job: parse, verify and run a pass pipeline on an example kernel file, then print it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tools/setup.sh
cargo build --release --quiet -p qd-opt
target/release/qd-opt examples/arith_pipeline.mlir --allow-unregistered-dialect \
  --pass-pipeline='builtin.module(canonicalize{max-iterations=4},cse,symbol-dce)' --pass-timing
