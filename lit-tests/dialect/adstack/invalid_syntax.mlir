// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Malformed adstack types and custom syntax: rejected when parsed.

// expected-error@+1 {{invalid !adstack.stack type: the element must be an integer or float, got index}}
qd.kernel @k(%s: !adstack.stack<index>) {
}

// -----

// expected-error@+1 {{invalid !adstack.stack type: the element must be an integer or float, got !qd.ptr<f32>}}
qd.kernel @k(%s: !adstack.stack<!qd.ptr<f32>>) {
}

// -----

// expected-error@+1 {{unknown adstack type '!adstack.heap' (expected stack)}}
qd.kernel @k(%s: !adstack.heap<f32>) {
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{expected an integer or float stack element type, got index}}
  %s = adstack.alloca : index
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{expected ':'}}
  %s = adstack.alloca f32
}

// -----

qd.kernel @k(%v: f32) {
  %s = adstack.alloca : f32
  // expected-error@+1 {{expected ','}}
  adstack.push %s %v : f32
}

// -----

qd.kernel @k(%v: f64) {
  %s = adstack.alloca : f32
  // expected-error@+1 {{use of value '%v' expects different type than prior uses: 'f32' vs 'f64'}}
  adstack.push %s, %v : f32
}

// -----

qd.kernel @k(%v: f32) {
  %s = adstack.alloca : f32
  // expected-error@+1 {{use of value '%s' expects different type than prior uses: '!adstack.stack<i32>' vs '!adstack.stack<f32>'}}
  %t = adstack.load_top %s : i32
}
