// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid atomics.

qd.field @b : !qd.field<4xi1>
qd.kernel @k(%v: i1, %i: i32) {
  // expected-error@+1 {{'qd.atomic_add' op expects an integer (wider than i1) or float element, got i1}}
  qd.atomic_add %v, @b[%i] : i1
}

// -----

qd.field @y : !qd.field<f32>
qd.kernel @k(%v: f32) {
  // expected-error@+1 {{'qd.atomic_max' op expects the result type to match the field element type f32, got i32}}
  %r = "qd.atomic_max"(%v) <{field = @y}> : (f32) -> i32
}

// -----

qd.field @y : !qd.field<f32>
qd.kernel @k(%v: f32) {
  // expected-error@+1 {{'qd.atomic_min' op expects 0 to 1 results, got 2}}
  %r:2 = "qd.atomic_min"(%v) <{field = @y}> : (f32) -> (f32, f32)
}

// -----

qd.field @h : !qd.field<8xi32>
qd.kernel @k(%v: f32, %i: i32) {
  // expected-error@+1 {{'qd.atomic_add' op expects the value type to match the field element type i32, got f32}}
  qd.atomic_add %v, @h[%i] : f32
}

// -----

qd.field @h : !qd.field<8xi32>
qd.kernel @k(%v: i32) {
  // expected-error@+1 {{'qd.atomic_add' op expects 1 index for field @h of rank 1, got 0}}
  qd.atomic_add %v, @h[] : i32
}
