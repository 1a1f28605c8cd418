#!/usr/bin/env bash
# The main job: compile and run examples/dynamic_loop.mlir (a kernel whose loop trip count is read
# from a field at launch) on the cpu device (LLVM, the default), after showing it through a qd-opt
# pipeline; then its gradient, with the adstack report: the linear body never reads v in reverse,
# so minimize-tape elides its stack (reported as elided, depth 0, 0 bytes).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tools/setup.sh
cargo build --release --quiet -p qd-opt -p qd-run
echo "== qd-opt: parse, verify, canonicalize + cse, print =="
target/release/qd-opt examples/dynamic_loop.mlir --pass-pipeline='builtin.module(canonicalize,cse)'
echo "== qd-run: n = 512, x = linspace(0, 1.5) on the cpu device =="
target/release/qd-run examples/dynamic_loop.mlir --kernel compute --set n=512 --set 'x=linspace(0,1.5)' --print y
echo "== qd-run: its gradient (y.grad = 1), with each adstack sized for this launch =="
target/release/qd-run examples/dynamic_loop.mlir --kernel compute --set n=512 --set 'x=linspace(0,1.5)' --grad y=1 --print y --print x.grad --report-adstack
