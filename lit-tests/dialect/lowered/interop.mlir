// REQUIRES: mlir-opt
// Upstream MLIR 22 accepts the generic form of every lowered op (lowered and qd unregistered
// there), and what it prints back parses, verifies and prints as the original does.
// RUN: qd-opt %S/ops.mlir > %t.direct
// RUN: qd-opt %S/ops.mlir --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt > %t.via
// RUN: diff %t.direct %t.via
// RUN: qd-opt %S/ops.mlir --print-op-generic | mlir-opt --allow-unregistered-dialect | qd-opt | FileCheck %S/ops.mlir
