// RUN: qd-opt %s | qd-opt | FileCheck %s
// A constant index operand out of bounds verifies: the verifier looks at the op, not at the ops
// defining its operands, since folding can make such a constant from an index that verified
// (or in code that never runs), and every pass must leave IR that verifies. Running the access
// is an out-of-bounds error (tools/qd-run tests, errors.rs). Literal indices that are the op's
// own attributes (qd.member_ptr, ad.load_element literal path entries) are still checked.

qd.field @x : !qd.field<8xf32> {needs_grad}
qd.field @h : !qd.field<8xi32>

// CHECK-LABEL: qd.kernel @k
qd.kernel @k(%v: f32, %w: i32) {
  %c9 = arith.constant 9 : i32
  %cm = arith.constant -1 : i32
  // CHECK: qd.load @x[%{{.*}}] : f32
  %l = qd.load @x[%c9] : f32
  // CHECK: qd.store %{{.*}}, @x[%{{.*}}] : f32
  qd.store %v, @x[%cm] : f32
  // CHECK: qd.atomic_max %{{.*}}, @h[%{{.*}}] : i32
  qd.atomic_max %w, @h[%c9] : i32
  // CHECK: ad.load_field_adjoint @x[%{{.*}}] : f32
  %g = ad.load_field_adjoint @x[%c9] : f32
  // CHECK: ad.store_field_adjoint %{{.*}}, @x[%{{.*}}] : f32
  ad.store_field_adjoint %v, @x[%cm] : f32
  %a = qd.alloca : !qd.ptr<!qd.array<4xf32>>
  // CHECK: qd.elem_ptr %{{.*}}[%{{.*}}] : !qd.ptr<!qd.array<4xf32>>
  %p = qd.elem_ptr %a[%c9] : !qd.ptr<!qd.array<4xf32>>
  // CHECK: ad.load_element %{{.*}}[%{{.*}}] : !qd.ptr<!qd.array<4xf32>>
  %e = ad.load_element %a[%c9] : !qd.ptr<!qd.array<4xf32>>
}
