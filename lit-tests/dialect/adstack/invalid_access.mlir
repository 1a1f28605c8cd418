// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid push, pop, load_top, load_top_adj and acc_adjoint ops.

qd.kernel @k(%v: f64) {
  %s = adstack.alloca : f32
  // expected-error@+1 {{'adstack.push' op expects the value type to match the stack element type f32, got f64}}
  "adstack.push"(%s, %v) : (!adstack.stack<f32>, f64) -> ()
}

// -----

qd.kernel @k(%v: f32) {
  // expected-error@+1 {{'adstack.push' op expects operand 0 to be an !adstack.stack, got f32}}
  "adstack.push"(%v, %v) : (f32, f32) -> ()
}

// -----

qd.kernel @k() {
  %s = adstack.alloca : f32
  // expected-error@+1 {{'adstack.push' op expects 2 operands, got 1}}
  "adstack.push"(%s) : (!adstack.stack<f32>) -> ()
}

// -----

qd.kernel @k(%v: f32) {
  %s = adstack.alloca : f32
  // expected-error@+1 {{'adstack.push' op expects 0 results, got 1}}
  %r = "adstack.push"(%s, %v) : (!adstack.stack<f32>, f32) -> f32
}

// -----

qd.kernel @k(%v: f32) {
  %s = adstack.alloca : f32
  // expected-error@+1 {{'adstack.push' op has unknown property 'max_size'}}
  "adstack.push"(%s, %v) <{max_size = 1 : i64}> : (!adstack.stack<f32>, f32) -> ()
}

// -----

qd.kernel @k() {
  %s = adstack.alloca : f32
  // expected-error@+1 {{'adstack.pop' op expects 1 operand, got 2}}
  "adstack.pop"(%s, %s) : (!adstack.stack<f32>, !adstack.stack<f32>) -> ()
}

// -----

qd.kernel @k() {
  %s = adstack.alloca : f32
  // expected-error@+1 {{'adstack.pop' op expects 0 results, got 1}}
  %r = adstack.pop %s : f32
}

// -----

qd.kernel @k(%v: i32) {
  // expected-error@+1 {{'adstack.pop' op expects operand 0 to be an !adstack.stack, got i32}}
  "adstack.pop"(%v) : (i32) -> ()
}

// -----

qd.kernel @k() {
  %s = adstack.alloca : f32
  // expected-error@+1 {{'adstack.pop' op expects no regions, got 1}}
  "adstack.pop"(%s) ({
  }) : (!adstack.stack<f32>) -> ()
}

// -----

qd.kernel @k() {
  %s = adstack.alloca : f32
  // expected-error@+1 {{'adstack.load_top' op expects the result type to match the stack element type f32, got i32}}
  %t = "adstack.load_top"(%s) : (!adstack.stack<f32>) -> i32
}

// -----

qd.kernel @k() {
  %s = adstack.alloca : f32
  // expected-error@+1 {{'adstack.load_top' op expects 1 result, got 0}}
  adstack.load_top %s : f32
}

// -----

qd.kernel @k() {
  %s = adstack.alloca : i32
  // expected-error@+1 {{'adstack.load_top_adj' op expects a float stack (integer and i1 stacks carry no adjoint), got !adstack.stack<i32>}}
  %a = adstack.load_top_adj %s : i32
}

// -----

qd.kernel @k() {
  %s = adstack.alloca : f32
  // expected-error@+1 {{'adstack.load_top_adj' op expects the result type to match the stack element type f32, got f64}}
  %a = "adstack.load_top_adj"(%s) : (!adstack.stack<f32>) -> f64
}

// -----

qd.kernel @k(%b: i1) {
  %s = adstack.alloca : i1
  // expected-error@+1 {{'adstack.acc_adjoint' op expects a float stack (integer and i1 stacks carry no adjoint), got !adstack.stack<i1>}}
  adstack.acc_adjoint %s, %b : i1
}

// -----

qd.kernel @k(%v: f64) {
  %s = adstack.alloca : f32
  // expected-error@+1 {{'adstack.acc_adjoint' op expects the value type to match the stack element type f32, got f64}}
  "adstack.acc_adjoint"(%s, %v) : (!adstack.stack<f32>, f64) -> ()
}

// -----

qd.kernel @k(%v: f32) {
  // expected-error@+1 {{'adstack.acc_adjoint' op expects operand 0 to be an !adstack.stack, got f32}}
  "adstack.acc_adjoint"(%v, %v) : (f32, f32) -> ()
}
