// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Malformed custom syntax of the qd ops, and operands whose types the syntax fixes: field,
// ndarray and local-array indices are i32, conditions are i1, a stored value has the pointee type.

qd.kernel @k(%a: i32) {
  // expected-error@+1 {{expected 'to'}}
  qd.range_for %i = %a, %a : i32 {
  }
}

// -----

qd.field @x : !qd.field<4xf32>
qd.kernel @k() {
  // expected-error@+1 {{expected 'in'}}
  qd.struct_for (%i) @x {
  }
}

// -----

qd.kernel @k(%c: i1) {
  qd.while {
    qd.condition %c
  // expected-error@+1 {{expected 'do'}}
  } {
  }
}

// -----

// expected-error@+1 {{expected ':' and type for SSA value}}
qd.kernel @k(%a) {
}

// -----

qd.kernel @k() {
  %p = qd.alloca : !qd.ptr<!qd.struct<f32>>
  // expected-error@+1 {{expected integer value}}
  %m = qd.member_ptr %p[%p] : !qd.ptr<!qd.struct<f32>>
}

// -----

qd.field @x : !qd.field<4xf32>
qd.kernel @k(%v: f32) {
  // expected-error@+1 {{expected ','}}
  qd.store %v @x[] : f32
}

// -----

// expected-error@+1 {{expected ':'}}
qd.field @x !qd.field<4xf32>

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>) {
  // expected-error@+1 {{expected integer value}}
  %s = qd.ndarray_shape %a, x : !qd.ndarray<?xf32>
}

// -----

qd.field @x : !qd.field<4xf32>
// expected-note@+1 {{prior use here}}
qd.kernel @k(%f: f32) {
  // expected-error@+1 {{use of value '%f' expects different type than prior uses: 'i32' vs 'f32'}}
  %v = qd.load @x[%f] : f32
}

// -----

// expected-note@+1 {{prior use here}}
qd.kernel @k(%f: f32) {
  // expected-error@+1 {{use of value '%f' expects different type than prior uses: 'i1' vs 'f32'}}
  qd.if %f {
  }
}

// -----

// expected-note@+1 {{prior use here}}
qd.kernel @k(%a: f32) {
  %p = qd.alloca : !qd.ptr<i32>
  // expected-error@+1 {{use of value '%a' expects different type than prior uses: 'i32' vs 'f32'}}
  qd.local_store %a, %p : !qd.ptr<i32>
}

// -----

// expected-note@+1 {{prior use here}}
qd.kernel @k(%a: !qd.ndarray<?xf32>, %i: i64) {
  // expected-error@+1 {{use of value '%i' expects different type than prior uses: 'i32' vs 'i64'}}
  %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
}

// -----

qd.kernel @k() {
  %p = qd.alloca : !qd.ptr<f32>
  // expected-error@+1 {{expected a !qd.ptr type}}
  %v = qd.local_load %p : f32
}
