// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid adjoint access ops.

qd.field @x : !qd.field<8xf32>
qd.kernel @k(%i: i32) {
  // expected-error@+1 {{'ad.load_field_adjoint' op expects field @x to be needs_grad (only those have an adjoint field)}}
  %a = ad.load_field_adjoint @x[%i] : f32
}

// -----

qd.field @n : !qd.field<8xi32> {needs_grad}
qd.kernel @k(%i: i32, %v: i32) {
  // expected-error@+1 {{'ad.acc_field_adjoint' op expects field @n to have a float element type, got i32}}
  ad.acc_field_adjoint %v, @n[%i] : i32
}

// -----

qd.kernel @k(%i: i32) {
  // expected-error@+1 {{'ad.load_field_adjoint' op '@z' does not reference a valid symbol}}
  %a = ad.load_field_adjoint @z[%i] : f32
}

// -----

qd.kernel @f() {
}
qd.kernel @k(%i: i32) {
  // expected-error@+1 {{'ad.load_field_adjoint' op expects @f to be a 'qd.field', got 'qd.kernel'}}
  %a = ad.load_field_adjoint @f[%i] : f32
}

// -----

qd.field @x : !qd.field<4x10xf32> {needs_grad}
qd.kernel @k(%i: i32) {
  // expected-error@+1 {{'ad.load_field_adjoint' op expects 2 indices for field @x of rank 2, got 1}}
  %a = ad.load_field_adjoint @x[%i] : f32
}

// -----

qd.field @x : !qd.field<8xf32> {needs_grad}
qd.kernel @k(%i: i32) {
  // expected-error@+1 {{'ad.load_field_adjoint' op expects the result type to match the field element type f32, got f64}}
  %a = ad.load_field_adjoint @x[%i] : f64
}

// -----

qd.field @x : !qd.field<8xf32> {needs_grad}
qd.kernel @k(%i: i64) {
  // expected-error@+1 {{'ad.load_field_adjoint' op expects index 0 to be i32, got i64}}
  %a = "ad.load_field_adjoint"(%i) <{field = @x}> : (i64) -> f32
}

// -----

qd.field @x : !qd.field<8xf32> {needs_grad}
qd.kernel @k(%i: i32) {
  // expected-error@+1 {{'ad.load_field_adjoint' op expects 1 result, got 0}}
  "ad.load_field_adjoint"(%i) <{field = @x}> : (i32) -> ()
}

// -----

qd.field @x : !qd.field<8xf32> {needs_grad}
qd.kernel @k(%i: i32) {
  // expected-error@+1 {{'ad.load_field_adjoint' op requires property 'field'}}
  %a = "ad.load_field_adjoint"(%i) : (i32) -> f32
}

// -----

qd.field @x : !qd.field<8xf32> {needs_grad}
qd.kernel @k(%i: i32) {
  // expected-error@+1 {{'ad.load_field_adjoint' op has unknown property 'axis'}}
  %a = "ad.load_field_adjoint"(%i) <{field = @x, axis = 0 : i64}> : (i32) -> f32
}

// -----

qd.field @x : !qd.field<8xf32> {needs_grad}
qd.kernel @k(%i: i32, %v: f64) {
  // expected-error@+1 {{'ad.acc_field_adjoint' op expects the value type to match the field element type f32, got f64}}
  ad.acc_field_adjoint %v, @x[%i] : f64
}

// -----

qd.field @x : !qd.field<8xf32> {needs_grad}
qd.kernel @k() {
  // expected-error@+1 {{'ad.store_field_adjoint' op expects at least 1 operand, got 0}}
  "ad.store_field_adjoint"() <{field = @x}> : () -> ()
}

// -----

qd.field @x : !qd.field<8xf32> {needs_grad}
qd.kernel @k(%i: i32, %v: f32) {
  // expected-error@+1 {{'ad.store_field_adjoint' op expects 0 results, got 1}}
  %r = "ad.store_field_adjoint"(%v, %i) <{field = @x}> : (f32, i32) -> f32
}

// -----

qd.kernel @k(%i: i32, %v: f32, %g: !qd.ndarray<?xi32>) {
  // expected-error@+1 {{'ad.acc_ndarray_adjoint' op expects an ndarray with a float element type, got !qd.ndarray<?xi32>}}
  "ad.acc_ndarray_adjoint"(%v, %g, %i) : (f32, !qd.ndarray<?xi32>, i32) -> ()
}

// -----

qd.kernel @k(%i: i32, %v: f32) {
  // expected-error@+1 {{'ad.acc_ndarray_adjoint' op expects operand 1 to be a !qd.ndarray, got f32}}
  "ad.acc_ndarray_adjoint"(%v, %v, %i) : (f32, f32, i32) -> ()
}

// -----

qd.kernel @k(%i: i32, %v: f32, %g: !qd.ndarray<?x?xf32>) {
  // expected-error@+1 {{'ad.acc_ndarray_adjoint' op expects 2 indices for the ndarray of rank 2, got 1}}
  ad.acc_ndarray_adjoint %v, %g[%i] : !qd.ndarray<?x?xf32>
}

// -----

qd.kernel @k(%i: i32, %v: f64, %g: !qd.ndarray<?xf32>) {
  // expected-error@+1 {{'ad.acc_ndarray_adjoint' op expects the value type to match the ndarray element type f32, got f64}}
  "ad.acc_ndarray_adjoint"(%v, %g, %i) : (f64, !qd.ndarray<?xf32>, i32) -> ()
}

// -----

qd.kernel @k(%i: i16, %v: f32, %g: !qd.ndarray<?xf32>) {
  // expected-error@+1 {{'ad.acc_ndarray_adjoint' op expects index 0 to be i32, got i16}}
  "ad.acc_ndarray_adjoint"(%v, %g, %i) : (f32, !qd.ndarray<?xf32>, i16) -> ()
}

// -----

qd.kernel @k(%v: f32, %g: !qd.ndarray<?xf32>) {
  // expected-error@+1 {{'ad.acc_ndarray_adjoint' op expects at least 2 operands, got 1}}
  "ad.acc_ndarray_adjoint"(%v) : (f32) -> ()
}

// -----

qd.kernel @k(%i: i32, %v: f32) {
  // expected-error@+1 {{expected a !qd.ndarray type, got f32}}
  ad.acc_ndarray_adjoint %v, %v[%i] : f32
}
