// REQUIRES: mlir-opt
// Upstream MLIR 22 and qd read each other's math: what qd prints (generic or custom form) verifies
// in mlir-opt, and what mlir-opt prints (generic or custom, with its SSA names and float
// spellings) reads back in qd as the same ops. The ops are those of dialect/math/ops.mlir and
// dialect/math/generic.mlir, checked against those files' own CHECK lines.
// RUN: qd-opt %S/../dialect/math/ops.mlir --allow-unregistered-dialect --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt --allow-unregistered-dialect | FileCheck %S/../dialect/math/ops.mlir
// RUN: qd-opt %S/../dialect/math/ops.mlir --allow-unregistered-dialect --print-op-generic | mlir-opt --allow-unregistered-dialect | qd-opt --allow-unregistered-dialect | FileCheck %S/../dialect/math/ops.mlir
// RUN: qd-opt %S/../dialect/math/ops.mlir --allow-unregistered-dialect | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt --allow-unregistered-dialect | FileCheck %S/../dialect/math/ops.mlir
// RUN: qd-opt %S/../dialect/math/generic.mlir --allow-unregistered-dialect --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt --allow-unregistered-dialect | FileCheck %S/../dialect/math/generic.mlir
// The folds of the newer ops are upstream's: mlir-opt's canonicalizer leaves and folds the same
// ops of dialect/math/folding_more.mlir as qd's does (checked against that file's CHECK lines).
// RUN: qd-opt %S/../dialect/math/folding_more.mlir --allow-unregistered-dialect --print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --mlir-print-op-generic | qd-opt --allow-unregistered-dialect | FileCheck %S/../dialect/math/folding_more.mlir
