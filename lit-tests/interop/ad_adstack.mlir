// REQUIRES: mlir-opt
// Upstream MLIR 22 accepts the generic form of every ad and adstack op (with ad, adstack and qd
// unregistered), and what it prints back parses, verifies and prints as the original does.
// RUN: qd-opt %s --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt | FileCheck %s
// Byte-for-byte: the custom form after the trip through mlir-opt equals the direct one.
// RUN: qd-opt %s > %t.direct
// RUN: qd-opt %s --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt > %t.via
// RUN: diff %t.direct %t.via

// CHECK: qd.field @x : !qd.field<8xf32> {needs_grad}
qd.field @x : !qd.field<8xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}

qd.kernel @k(%a: !qd.ndarray<?xf32>, %n: !qd.ndarray<?xi32>) {
}

// CHECK-LABEL: qd.kernel @k_grad(
qd.kernel @k_grad(%a: !qd.ndarray<?xf32>, %n: !qd.ndarray<?xi32>, %da: !qd.ndarray<?xf32>) {
  %c0 = arith.constant 0 : i32
  // CHECK: %[[DY:.*]] = ad.load_field_adjoint @y[] : f32
  %dy = ad.load_field_adjoint @y[] : f32
  // CHECK: ad.acc_field_adjoint %[[DY]], @x[%[[C0:.*]]] : f32
  ad.acc_field_adjoint %dy, @x[%c0] : f32
  // CHECK: ad.store_field_adjoint %[[DY]], @x[%[[C0]]] : f32
  ad.store_field_adjoint %dy, @x[%c0] : f32
  // CHECK: ad.acc_ndarray_adjoint %[[DY]], %{{.*}}[%[[C0]]] : !qd.ndarray<?xf32>
  ad.acc_ndarray_adjoint %dy, %da[%c0] : !qd.ndarray<?xf32>
  // CHECK: %[[S:.*]] = adstack.alloca : f32 {max_size = 100, size_expr = #adstack.size<@n[]:i32 + 1>}
  %s = adstack.alloca : f32 {max_size = 100, size_expr = #adstack.size<@n[]:i32 + 1>}
  // CHECK: adstack.push %[[S]], %[[DY]] : f32
  adstack.push %s, %dy : f32
  // CHECK: %[[T:.*]] = adstack.load_top %[[S]] : f32
  %t = adstack.load_top %s : f32
  // CHECK: %[[A:.*]] = adstack.load_top_adj %[[S]] : f32
  %adj = adstack.load_top_adj %s : f32
  // CHECK: adstack.acc_adjoint %[[S]], %[[T]] : f32
  adstack.acc_adjoint %s, %t : f32
  // CHECK: adstack.pop %[[S]] : f32
  adstack.pop %s : f32
  // CHECK: %[[B:.*]] = adstack.alloca : i1
  %b = adstack.alloca : i1
  %true = arith.constant true
  // CHECK: adstack.push %[[B]], %{{.*}} : i1
  adstack.push %b, %true : i1
}

// CHECK: ad.reverse @k -> @k_grad {active = [true, false]}
ad.reverse @k -> @k_grad {active = [true, false]}
