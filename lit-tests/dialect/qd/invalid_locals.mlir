// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid locals and aggregate addressing.

qd.kernel @k() {
  // expected-error@+1 {{expected a !qd.ptr type}}
  %p = qd.alloca : f32
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'qd.alloca' op expects the result to be a !qd.ptr, got f32}}
  %p = "qd.alloca"() : () -> f32
}

// -----

qd.kernel @k() {
  %p = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{'qd.local_load' op expects a pointer to a scalar, got a pointer to !qd.array<10xf32>; address an element with qd.elem_ptr or qd.member_ptr}}
  %v = "qd.local_load"(%p) : (!qd.ptr<!qd.array<10xf32>>) -> f32
}

// -----

qd.kernel @k(%x: f32) {
  %p = qd.alloca : !qd.ptr<!qd.struct<f32>>
  // expected-error@+1 {{'qd.local_store' op expects a pointer to a scalar, got a pointer to !qd.struct<f32>}}
  "qd.local_store"(%x, %p) : (f32, !qd.ptr<!qd.struct<f32>>) -> ()
}

// -----

qd.kernel @k() {
  %p = qd.alloca : !qd.ptr<f32>
  // expected-error@+1 {{'qd.local_load' op expects the result type to be the pointee type f32, got i32}}
  %v = "qd.local_load"(%p) : (!qd.ptr<f32>) -> i32
}

// -----

qd.kernel @k(%x: f64) {
  %p = qd.alloca : !qd.ptr<f32>
  // expected-error@+1 {{'qd.local_store' op expects the value type to be the pointee type f32, got f64}}
  "qd.local_store"(%x, %p) : (f64, !qd.ptr<f32>) -> ()
}

// -----

qd.kernel @k(%x: f32) {
  // expected-error@+1 {{'qd.local_load' op expects the pointer to be a !qd.ptr, got f32}}
  %v = "qd.local_load"(%x) : (f32) -> f32
}

// -----

qd.kernel @k(%i: i32) {
  %p = qd.alloca : !qd.ptr<!qd.struct<f32>>
  // expected-error@+1 {{expected a pointer to a !qd.array}}
  %e = qd.elem_ptr %p[%i] : !qd.ptr<!qd.struct<f32>>
}

// -----

qd.kernel @k(%i: i32) {
  %p = qd.alloca : !qd.ptr<!qd.struct<f32>>
  // expected-error@+1 {{'qd.elem_ptr' op expects a pointer to a !qd.array, got a pointer to !qd.struct<f32>}}
  %e = "qd.elem_ptr"(%p, %i) : (!qd.ptr<!qd.struct<f32>>, i32) -> !qd.ptr<f32>
}

// -----

qd.kernel @k(%i: i32) {
  %p = qd.alloca : !qd.ptr<!qd.array<4x10xf32>>
  // expected-error@+1 {{expected exactly one index, got 2}}
  %e = qd.elem_ptr %p[%i, %i] : !qd.ptr<!qd.array<4x10xf32>>
}

// -----

qd.kernel @k(%i: i32) {
  %p = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{'qd.elem_ptr' op expects the result to be !qd.ptr<f32>, got !qd.ptr<i32>}}
  %e = "qd.elem_ptr"(%p, %i) : (!qd.ptr<!qd.array<10xf32>>, i32) -> !qd.ptr<i32>
}

// -----

qd.kernel @k() {
  %p = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
  // expected-error@+1 {{member index 2 is out of bounds for a struct of 2 members}}
  %m = qd.member_ptr %p[2] : !qd.ptr<!qd.struct<f32, i32>>
}

// -----

qd.kernel @k() {
  %p = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
  // expected-error@+1 {{'qd.member_ptr' op member index -1 is out of bounds for a struct of 2 members}}
  %m = "qd.member_ptr"(%p) <{index = -1 : i64}> : (!qd.ptr<!qd.struct<f32, i32>>) -> !qd.ptr<f32>
}

// -----

qd.kernel @k() {
  %p = qd.alloca : !qd.ptr<!qd.array<2xf32>>
  // expected-error@+1 {{'qd.member_ptr' op expects a pointer to a !qd.struct, got a pointer to !qd.array<2xf32>}}
  %m = "qd.member_ptr"(%p) <{index = 0 : i64}> : (!qd.ptr<!qd.array<2xf32>>) -> !qd.ptr<f32>
}

// -----

qd.kernel @k() {
  %p = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
  // expected-error@+1 {{'qd.member_ptr' op expects the result to be !qd.ptr<i32>, got !qd.ptr<f32>}}
  %m = "qd.member_ptr"(%p) <{index = 1 : i64}> : (!qd.ptr<!qd.struct<f32, i32>>) -> !qd.ptr<f32>
}

// -----

qd.kernel @k() {
  %p = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
  // expected-error@+1 {{'qd.member_ptr' op requires property 'index'}}
  %m = "qd.member_ptr"(%p) : (!qd.ptr<!qd.struct<f32, i32>>) -> !qd.ptr<f32>
}

// -----

qd.kernel @k() {
  %q = qd.alloca : !qd.ptr<f32>
  // expected-error@+1 {{'qd.alloca' op expects 0 operands, got 1}}
  %p = "qd.alloca"(%q) : (!qd.ptr<f32>) -> !qd.ptr<f32>
}
