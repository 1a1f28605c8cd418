// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid qd.load / qd.store ops.

qd.field @x : !qd.field<4x10xf32>
qd.kernel @k(%i: i32) {
  // expected-error@+1 {{'qd.load' op expects 2 indices for field @x of rank 2, got 1}}
  %v = qd.load @x[%i] : f32
}

// -----

qd.field @s : !qd.field<f32>
qd.kernel @k(%i: i32) {
  // expected-error@+1 {{'qd.load' op expects 0 indices for field @s of rank 0, got 1}}
  %v = qd.load @s[%i] : f32
}

// -----

qd.field @x : !qd.field<8xf32>
qd.kernel @k(%i: i32) {
  // expected-error@+1 {{'qd.load' op expects the result type to match the field element type f32, got i32}}
  %v = qd.load @x[%i] : i32
}

// -----

qd.field @x : !qd.field<8xf32>
qd.kernel @k(%i: i64) {
  // expected-error@+1 {{'qd.load' op expects index 0 to be i32, got i64}}
  %v = "qd.load"(%i) <{field = @x}> : (i64) -> f32
}

// -----

qd.field @x : !qd.field<8xf32>
qd.kernel @k(%i: i32, %v: f64) {
  // expected-error@+1 {{'qd.store' op expects the value type to match the field element type f32, got f64}}
  qd.store %v, @x[%i] : f64
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'qd.load' op expects @k to be a 'qd.field', got 'qd.kernel'}}
  %v = qd.load @k[] : f32
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'qd.load' op '@nope' does not reference a valid symbol}}
  %v = qd.load @nope[] : f32
}

// -----

qd.field @y : !qd.field<f32>
qd.kernel @k(%v: f32) {
  // expected-error@+1 {{'qd.store' op expects 0 results, got 1}}
  %r = qd.store %v, @y[] : f32
}

// -----

qd.field @y : !qd.field<f32>
qd.kernel @k() {
  // expected-error@+1 {{'qd.load' op property 'field' must be a flat symbol reference}}
  %v = "qd.load"() <{field = "y"}> : () -> f32
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'qd.load' op requires property 'field'}}
  %v = "qd.load"() : () -> f32
}

// -----

qd.field @y : !qd.field<f32>
qd.kernel @k() {
  // expected-error@+1 {{'qd.store' op expects at least 1 operand, got 0}}
  "qd.store"() <{field = @y}> : () -> ()
}
