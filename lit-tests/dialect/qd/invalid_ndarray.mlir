// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid ndarray access.

qd.kernel @k(%a: !qd.ndarray<?x?xf32>, %i: i32) {
  // expected-error@+1 {{'qd.ndarray_load' op expects 2 indices for an ndarray of rank 2, got 1}}
  %v = qd.ndarray_load %a[%i] : !qd.ndarray<?x?xf32>
}

// -----

qd.kernel @k(%x: f32) {
  // expected-error@+1 {{'qd.ndarray_load' op expects a !qd.ndarray operand, got f32}}
  %v = "qd.ndarray_load"(%x) : (f32) -> f32
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %i: i32) {
  // expected-error@+1 {{expected a !qd.ndarray type}}
  %v = qd.ndarray_load %a[%i] : !qd.ptr<f32>
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %i: i32) {
  // expected-error@+1 {{'qd.ndarray_load' op expects the result type to match the ndarray element type f32, got i32}}
  %v = "qd.ndarray_load"(%a, %i) : (!qd.ndarray<?xf32>, i32) -> i32
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %i: i32, %v: f64) {
  // expected-error@+1 {{'qd.ndarray_store' op expects the value type to match the ndarray element type f32, got f64}}
  "qd.ndarray_store"(%v, %a, %i) : (f64, !qd.ndarray<?xf32>, i32) -> ()
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %i: i64, %v: f32) {
  // expected-error@+1 {{'qd.ndarray_store' op expects index 0 to be i32, got i64}}
  "qd.ndarray_store"(%v, %a, %i) : (f32, !qd.ndarray<?xf32>, i64) -> ()
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>) {
  // expected-error@+1 {{'qd.ndarray_shape' op axis 1 is out of bounds for an ndarray of rank 1}}
  %n = qd.ndarray_shape %a, 1 : !qd.ndarray<?xf32>
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>) {
  // expected-error@+1 {{'qd.ndarray_shape' op axis -1 is out of bounds for an ndarray of rank 1}}
  %n = qd.ndarray_shape %a, -1 : !qd.ndarray<?xf32>
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>) {
  // expected-error@+1 {{'qd.ndarray_shape' op expects an i32 result, got i64}}
  %n = "qd.ndarray_shape"(%a) <{axis = 0 : i64}> : (!qd.ndarray<?xf32>) -> i64
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>) {
  // expected-error@+1 {{'qd.ndarray_shape' op requires property 'axis'}}
  %n = "qd.ndarray_shape"(%a) : (!qd.ndarray<?xf32>) -> i32
}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>) {
  // expected-error@+1 {{'qd.ndarray_shape' op property 'axis' must be an integer}}
  %n = "qd.ndarray_shape"(%a) <{axis = "zero"}> : (!qd.ndarray<?xf32>) -> i32
}
