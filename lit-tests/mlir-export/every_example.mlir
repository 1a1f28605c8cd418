// RUN: python3 %S/Inputs/export_all.py %S/../.. mlir-opt | FileCheck %s
// Every kernel of every example and of the gradient corpus, and its gradient, exported to upstream
// MLIR (func, scf, arith, math, memref) and verified by mlir-opt with only its registered
// dialects: nothing of qd's dialects is left, and every op is valid upstream MLIR.

// CHECK-NOT: FAILED
// CHECK-NOT: NOT UPSTREAM
// CHECK: {{[0-9]+}} exported, [[N:[0-9]+]] verified by mlir-opt, 0 failed
// CHECK-NOT: TOO FEW
