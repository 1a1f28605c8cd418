// qd-opt's canonicalize prints exactly what mlir-opt 22's does on our copies of the upstream
// Arith and Math canonicalization chunks: same folds and rewrites, same constant order (MLIR's
// OperationFolder), same names and float text (issue #17).
// REQUIRES: mlir-opt
// RUN: qd-opt %S/arith_canonicalize.mlir -canonicalize="test-convergence" --split-input-file > %t.qd
// RUN: mlir-opt %S/arith_canonicalize.mlir -canonicalize="test-convergence" --split-input-file > %t.mlir
// RUN: diff %t.mlir %t.qd
// RUN: qd-opt %S/arith_canonicalize_funcs.mlir -canonicalize="test-convergence" --split-input-file > %t.qd
// RUN: mlir-opt %S/arith_canonicalize_funcs.mlir -canonicalize="test-convergence" --split-input-file > %t.mlir
// RUN: diff %t.mlir %t.qd
// RUN: qd-opt %S/math_canonicalize.mlir -canonicalize="test-convergence" --split-input-file > %t.qd
// RUN: mlir-opt %S/math_canonicalize.mlir -canonicalize="test-convergence" --split-input-file > %t.mlir
// RUN: diff %t.mlir %t.qd
