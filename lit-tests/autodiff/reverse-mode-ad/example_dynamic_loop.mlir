// RUN: qd-opt %S/../../../examples/dynamic_loop.mlir --pass=reverse-mode-ad | FileCheck %s
// RUN: qd-opt %S/../../../examples/dynamic_loop.mlir --pass=reverse-mode-ad --print-op-generic | qd-opt | FileCheck %s
// examples/dynamic_loop.mlir: v = v * 0.95 + 0.01 is a loop-carried recurrence, so v becomes one
// adstack (its zero, x_i, then one entry per iteration: n + 2 pushes); its adjoint flows through
// the stack's entries. One stack in all.

// CHECK-LABEL: qd.kernel @compute_grad()
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[V:.*]] = adstack.alloca : f32
// CHECK-NOT: adstack.alloca
// CHECK: %[[XI:.*]] = qd.load @x[%[[I]]] : f32
// CHECK: adstack.push %[[V]], %{{.*}} : f32
// CHECK-NEXT: adstack.push %[[V]], %[[XI]] : f32
// CHECK-NEXT: %[[N:.*]] = qd.load @n[] : i32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: qd.range_for %{{.*}} = %[[C0]] to %[[N]] : i32 {
// CHECK-NEXT: %[[A:.*]] = adstack.load_top %[[V]] : f32
// CHECK-NEXT: %[[K:.*]] = arith.constant 0.949999988 : f32
// CHECK-NEXT: %[[B:.*]] = arith.constant 0.00999999977 : f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[K]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[M]], %[[B]] : f32
// CHECK-NEXT: adstack.push %[[V]], %[[S]] : f32
// CHECK-NEXT: }
// The final load of v is reversed: y's adjoint goes into v's top entry.
// CHECK-NEXT: %[[DY:.*]] = ad.load_field_adjoint @y[] : f32
// CHECK-NEXT: adstack.acc_adjoint %[[V]], %[[DY]] : f32
// CHECK: qd.range_for
// CHECK-NEXT: %[[G:.*]] = adstack.load_top_adj %[[V]] : f32
// CHECK-NEXT: adstack.pop %[[V]] : f32
// CHECK-NEXT: %[[K2:.*]] = arith.constant 0.949999988 : f32
// CHECK-NEXT: %[[GA:.*]] = arith.mulf %[[G]], %[[K2]] : f32
// CHECK-NEXT: adstack.acc_adjoint %[[V]], %[[GA]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[GX:.*]] = adstack.load_top_adj %[[V]] : f32
// CHECK-NEXT: adstack.pop %[[V]] : f32
// CHECK-NEXT: adstack.pop %[[V]] : f32
// CHECK-NEXT: ad.acc_field_adjoint %[[GX]], @x[%[[I]]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: ad.reverse @compute -> @compute_grad {active = []}
