// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid qd.kernel ops.

// expected-error@+1 {{'qd.kernel' op expects argument 0 to be an integer or float scalar or a !qd.ndarray, got !qd.ptr<f32>}}
qd.kernel @k(%p: !qd.ptr<f32>) {
}

// -----

// expected-error@+1 {{'qd.kernel' op expects argument 1 to be an integer or float scalar or a !qd.ndarray, got index}}
qd.kernel @k(%a: f32, %i: index) {
}

// -----

// expected-error@+1 {{'qd.kernel' op expects a kernel to return nothing, got 1 results}}
"qd.kernel"() <{function_type = () -> f32, sym_name = "k"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'qd.kernel' op expects body block argument 0 to have type f32, got i32}}
"qd.kernel"() <{function_type = (f32) -> (), sym_name = "k"}> ({
^bb0(%a: i32):
}) : () -> ()

// -----

// expected-error@+1 {{'qd.kernel' op expects its body region to have a block with 1 argument}}
"qd.kernel"() <{function_type = (f32) -> (), sym_name = "k"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'qd.kernel' op property 'function_type' must be a type}}
"qd.kernel"() <{function_type = 1 : i32, sym_name = "k"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'qd.kernel' op expects 'function_type' to be a function type, got f32}}
"qd.kernel"() <{function_type = f32, sym_name = "k"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'qd.kernel' op requires property 'sym_name'}}
"qd.kernel"() <{function_type = () -> ()}> ({
}) : () -> ()

// -----

qd.kernel @outer() {
  // expected-error@+1 {{'qd.kernel' op expects its parent to be a symbol table (such as 'builtin.module'), got 'qd.kernel'}}
  qd.kernel @inner() {
  }
}
