// qd's func text is mlir-opt's: mlir-opt reads qd's custom and generic output, and qd reads
// mlir-opt's, to the same text.
// REQUIRES: mlir-opt
// RUN: qd-opt %s > %t.qd
// RUN: mlir-opt %t.qd | qd-opt > %t.via
// RUN: diff %t.qd %t.via
// RUN: qd-opt %s --print-op-generic | mlir-opt | qd-opt > %t.via.generic
// RUN: diff %t.qd %t.via.generic

func.func private @g(i32, f32 {t.x}) -> (i1 {t.r = 1 : i32})
func.func @f(%a: i32, %b: f32) -> (i1, i32) attributes {t.fattr} {
  %0 = call @g(%a, %b) : (i32, f32) -> i1
  %h = constant @g : (i32, f32) -> i1
  %1 = call_indirect %h(%a, %b) : (i32, f32) -> i1
  %2 = arith.addi %a, %a : i32
  return %1, %2 : i1, i32
}
