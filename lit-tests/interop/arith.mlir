// REQUIRES: mlir-opt
// Upstream MLIR 22 and qd read each other's arith: what qd prints (generic or custom form) verifies
// in mlir-opt, and what mlir-opt prints (generic or custom, with its SSA names and float
// spellings) reads back in qd as the same ops. The ops are those of dialect/arith/ops.mlir and
// dialect/arith/generic.mlir, checked against those files' own CHECK lines. mlir-opt's
// canonicalizer folds dialect/arith/folding_more.mlir as qd does (its CHECK lines, read back).
// RUN: qd-opt %S/../dialect/arith/ops.mlir --allow-unregistered-dialect --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt --allow-unregistered-dialect | FileCheck %S/../dialect/arith/ops.mlir
// RUN: qd-opt %S/../dialect/arith/ops.mlir --allow-unregistered-dialect --print-op-generic | mlir-opt --allow-unregistered-dialect | qd-opt --allow-unregistered-dialect | FileCheck %S/../dialect/arith/ops.mlir
// RUN: qd-opt %S/../dialect/arith/ops.mlir --allow-unregistered-dialect | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt --allow-unregistered-dialect | FileCheck %S/../dialect/arith/ops.mlir
// RUN: qd-opt %S/../dialect/arith/generic.mlir --allow-unregistered-dialect --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt --allow-unregistered-dialect | FileCheck %S/../dialect/arith/generic.mlir
// RUN: mlir-opt %S/../dialect/arith/folding_more.mlir --allow-unregistered-dialect --canonicalize | qd-opt --allow-unregistered-dialect | FileCheck %S/../dialect/arith/folding_more.mlir
