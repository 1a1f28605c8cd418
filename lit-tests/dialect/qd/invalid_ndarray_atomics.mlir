// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid ndarray atomics.

qd.kernel @k(%a: !qd.ndarray<?xi1>, %v: i1, %i: i32) {
  // expected-error@+1 {{'qd.ndarray_atomic_add' op expects an integer (wider than i1) or float element, got i1}}
  qd.ndarray_atomic_add %v, %a[%i] : !qd.ndarray<?xi1>
}

// -----

qd.kernel @k(%a: !qd.ndarray<?x?xf32>, %v: f32, %i: i32) {
  // expected-error@+1 {{'qd.ndarray_atomic_sub' op expects 2 indices for an ndarray of rank 2, got 1}}
  qd.ndarray_atomic_sub %v, %a[%i] : !qd.ndarray<?x?xf32>
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %v: f32, %i: i64) {
  // expected-error@+1 {{'qd.ndarray_atomic_min' op expects index 0 to be i32, got i64}}
  "qd.ndarray_atomic_min"(%v, %a, %i) : (f32, !qd.ndarray<?xf32>, i64) -> ()
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %v: i32, %i: i32) {
  // expected-error@+1 {{'qd.ndarray_atomic_max' op expects the value type to match the ndarray element type f32, got i32}}
  "qd.ndarray_atomic_max"(%v, %a, %i) : (i32, !qd.ndarray<?xf32>, i32) -> ()
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %v: f32, %i: i32) {
  // expected-error@+1 {{'qd.ndarray_atomic_add' op expects the result type to match the ndarray element type f32, got i32}}
  %r = "qd.ndarray_atomic_add"(%v, %a, %i) : (f32, !qd.ndarray<?xf32>, i32) -> i32
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %v: f32, %i: i32) {
  // expected-error@+1 {{'qd.ndarray_atomic_sub' op expects 0 to 1 results, got 2}}
  %r:2 = "qd.ndarray_atomic_sub"(%v, %a, %i) : (f32, !qd.ndarray<?xf32>, i32) -> (f32, f32)
}

// -----

qd.kernel @k(%x: f32, %i: i32) {
  // expected-error@+1 {{'qd.ndarray_atomic_add' op expects a !qd.ndarray operand, got f32}}
  "qd.ndarray_atomic_add"(%x, %x, %i) : (f32, f32, i32) -> ()
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %v: f32, %i: i32) {
  // expected-error@+1 {{expected a !qd.ndarray type}}
  qd.ndarray_atomic_add %v, %a[%i] : f32
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xui32>, %v: ui32, %i: i32) {
  // expected-error@+1 {{'qd.ndarray_atomic_sub' op expects a signless integer or float element, got ui32}}
  qd.ndarray_atomic_sub %v, %a[%i] : !qd.ndarray<?xui32>
}
