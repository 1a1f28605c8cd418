// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// Scalar kernel arguments are leaves of the grammar (`argN:T`, N its position among all the
// kernel's arguments): the runtime reads them from each launch's arguments.

// The trip count is the argument itself: n pushes (`- 0`: a negative n runs no iteration).
// CHECK-LABEL: qd.kernel @trip
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<arg1:i32 - 0>}
qd.kernel @trip(%v: f32, %n: i32) {
  %s = adstack.alloca : f32
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %n : i32 {
    adstack.push %s, %v : f32
  }
}

// -----

// A range between two arguments, plus a push before the loop.
// CHECK-LABEL: qd.kernel @between
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<1 + (arg2:i64 - arg0:i64)>}
qd.kernel @between(%b: i64, %v: f32, %e: i64) {
  %s = adstack.alloca : f32
  adstack.push %s, %v : f32
  qd.range_for %i = %b to %e : i64 {
    adstack.push %s, %v : f32
  }
}

// -----

// Nested under an ndarray shape: the product of the trip counts.
// CHECK-LABEL: qd.kernel @nested
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<arg0.shape[0] * (arg1:i32 - 0)>}
qd.kernel @nested(%a: !qd.ndarray<?xf32>, %n: i32, %v: f32) {
  %s = adstack.alloca : f32
  %c0 = arith.constant 0 : i32
  %len = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
  qd.range_for %i = %c0 to %len : i32 {
    qd.range_for %j = %c0 to %n : i32 {
      adstack.push %s, %v : f32
    }
  }
}
