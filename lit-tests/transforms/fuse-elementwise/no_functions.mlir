// A module without functions (kernels and fields only, as qd-run's modules) is left as it is:
// the pass fuses the ndarray ops of functions, and with no function in the context it does not
// walk the module at all.
// RUN: qd-opt %s --pass=fuse-elementwise | FileCheck %s

// CHECK-LABEL: module {
// CHECK-NEXT: qd.field @x : !qd.field<64xf32> {needs_grad}
// CHECK-NEXT: qd.field @y : !qd.field<64xf32> {needs_grad}
// CHECK-NEXT: qd.kernel @k() {
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[X:.*]] = qd.load @x[%[[I]]] : f32
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[V:.*]] = arith.mulf %[[X]], %[[C]] : f32
// CHECK-NEXT: qd.atomic_add %[[V]], @y[%[[I]]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: ad.reverse @k
// CHECK-NEXT: }
// CHECK-NOT: ndarray
module {
  qd.field @x : !qd.field<64xf32> {needs_grad}
  qd.field @y : !qd.field<64xf32> {needs_grad}
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %x = qd.load @x[%i] : f32
      %c = arith.constant 2.0 : f32
      %v = arith.mulf %x, %c : f32
      qd.atomic_add %v, @y[%i] : f32
    }
  }
  ad.reverse @k
}
