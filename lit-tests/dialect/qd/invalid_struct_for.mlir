// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid qd.struct_for ops.

qd.field @m : !qd.field<4x10xf32>
qd.kernel @k() {
  // expected-error@+1 {{'qd.struct_for' op expects 2 induction variables for field @m of rank 2, got 1}}
  qd.struct_for (%i) in @m {
  }
}

// -----

qd.field @s : !qd.field<f32>
qd.kernel @k() {
  // expected-error@+1 {{'qd.struct_for' op expects 0 induction variables for field @s of rank 0, got 1}}
  qd.struct_for (%i) in @s {
  }
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'qd.struct_for' op '@nope' does not reference a valid symbol}}
  qd.struct_for (%i) in @nope {
  }
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'qd.struct_for' op expects @k to be a 'qd.field', got 'qd.kernel'}}
  qd.struct_for (%i) in @k {
  }
}

// -----

qd.field @v : !qd.field<8xf32>
qd.kernel @k() {
  // expected-error@+1 {{'qd.struct_for' op expects body block argument 0 to have type i32, got i64}}
  "qd.struct_for"() <{field = @v}> ({
  ^bb0(%i: i64):
  }) : () -> ()
}

// -----

qd.field @v : !qd.field<8xf32>
qd.kernel @k() {
  // expected-error@+1 {{'qd.struct_for' op property 'field' must be a flat symbol reference}}
  "qd.struct_for"() <{field = "v"}> ({
  ^bb0(%i: i32):
  }) : () -> ()
}

// -----

qd.field @v : !qd.field<8xf32>
qd.kernel @k() {
  // expected-error@+1 {{'qd.struct_for' op requires property 'field'}}
  "qd.struct_for"() ({
  ^bb0(%i: i32):
  }) : () -> ()
}
