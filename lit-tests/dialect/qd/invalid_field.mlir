// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid qd.field ops.

// expected-error@+1 {{'qd.field' op expects a !qd.field type, got f32}}
qd.field @x : f32

// -----

// expected-error@+1 {{'qd.field' op expects a !qd.field type, got !qd.ndarray<?xf32>}}
qd.field @x : !qd.ndarray<?xf32>

// -----

// expected-error@+1 {{'qd.field' op property 'needs_grad' must be a unit attribute}}
"qd.field"() <{needs_grad = 1 : i32, sym_name = "x", type = !qd.field<f32>}> : () -> ()

// -----

// expected-error@+1 {{'qd.field' op requires property 'type'}}
"qd.field"() <{sym_name = "x"}> : () -> ()

// -----

// expected-error@+1 {{'qd.field' op property 'type' must be a type}}
"qd.field"() <{sym_name = "x", type = 3 : i32}> : () -> ()

// -----

// expected-error@+1 {{'qd.field' op has unknown property 'extra'}}
"qd.field"() <{extra = 1 : i32, sym_name = "x", type = !qd.field<f32>}> : () -> ()

// -----

// expected-error@+1 {{'qd.field' op expects 0 results, got 1}}
%0 = "qd.field"() <{sym_name = "x", type = !qd.field<f32>}> : () -> f32

// -----

qd.kernel @k() {
  // expected-error@+1 {{'qd.field' op expects its parent to be a symbol table (such as 'builtin.module'), got 'qd.kernel'}}
  qd.field @x : !qd.field<f32>
}
