// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid qd types: rejected when parsed.

// expected-error@+1 {{invalid !qd.field type: field dimensions must be positive, got 0}}
qd.field @x : !qd.field<0xf32>

// -----

// expected-error@+1 {{invalid !qd.field type: field element type must be an integer or float scalar}}
qd.field @x : !qd.field<4xindex>

// -----

// expected-error@+1 {{invalid !qd.field type: field element type must be an integer or float scalar}}
qd.field @x : !qd.field<4x!qd.array<2xf32>>

// -----

// expected-error@+1 {{expected static shape}}
qd.field @x : !qd.field<?xf32>

// -----

// expected-error@+1 {{invalid !qd.ndarray type: ndarray dimensions must be dynamic ('?')}}
qd.kernel @k(%a: !qd.ndarray<4xf32>) {
}

// -----

// expected-error@+1 {{invalid !qd.ndarray type: ndarray element type must be an integer or float scalar}}
qd.kernel @k(%a: !qd.ndarray<?x!qd.ptr<f32>>) {
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{invalid !qd.ptr type: pointee type must be an integer or float scalar, !qd.array or !qd.struct}}
  %p = qd.alloca : !qd.ptr<!qd.ptr<f32>>
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{invalid !qd.array type: array length must be positive, got 0}}
  %p = qd.alloca : !qd.ptr<!qd.array<0xf32>>
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{expected an array length, as in !qd.array<10xf32>}}
  %p = qd.alloca : !qd.ptr<!qd.array<f32>>
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{invalid !qd.struct type: struct member type must be an integer or float scalar, !qd.array or !qd.struct}}
  %p = qd.alloca : !qd.ptr<!qd.struct<f32, index>>
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{unknown qd type '!qd.vector' (expected field, ndarray, ptr, array or struct)}}
  %p = qd.alloca : !qd.vector<4xf32>
}
