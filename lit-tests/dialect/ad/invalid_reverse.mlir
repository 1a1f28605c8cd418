// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid ad.reverse declarations.

// expected-error@+1 {{'ad.reverse' op '@nope' does not reference a valid symbol}}
ad.reverse @nope

// -----

qd.field @x : !qd.field<4xf32>
// expected-error@+1 {{'ad.reverse' op expects @x to be a 'qd.kernel', got 'qd.field'}}
ad.reverse @x

// -----

// expected-error@+1 {{'ad.reverse' op requires property 'kernel'}}
"ad.reverse"() : () -> ()

// -----

qd.kernel @k() {
}
// expected-error@+1 {{'ad.reverse' op property 'kernel' must be a flat symbol reference}}
"ad.reverse"() <{kernel = "k"}> : () -> ()

// -----

qd.kernel @k() {
}
// expected-error@+1 {{'ad.reverse' op property 'gradient' must be a flat symbol reference}}
"ad.reverse"() <{kernel = @k, gradient = 1 : i32}> : () -> ()

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>) {
}
// expected-error@+1 {{'ad.reverse' op property 'active' must be an array of booleans}}
ad.reverse @k {active = [1 : i32]}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>) {
}
// expected-error@+1 {{'ad.reverse' op property 'active' must be an array of booleans}}
"ad.reverse"() <{kernel = @k, active = true}> : () -> ()

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %s: f32) {
}
// expected-error@+1 {{'ad.reverse' op expects one 'active' entry per argument of @k (2), got 1}}
ad.reverse @k {active = [true]}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %s: f32) {
}
// expected-error@+1 {{'ad.reverse' op marks argument 1 of @k active, but only float ndarray arguments carry adjoints, got f32}}
ad.reverse @k {active = [true, true]}

// -----

qd.kernel @k(%n: !qd.ndarray<?xi32>) {
}
// expected-error@+1 {{'ad.reverse' op marks argument 0 of @k active, but only float ndarray arguments carry adjoints, got !qd.ndarray<?xi32>}}
ad.reverse @k {active = [true]}

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %s: f32) {
}
qd.kernel @k_grad(%a: !qd.ndarray<?xf32>, %s: f32) {
}
// expected-error@+1 {{'ad.reverse' op expects gradient kernel @k_grad to take (!qd.ndarray<?xf32>, f32, !qd.ndarray<?xf32>) (the arguments of @k, then the adjoints of its active ndarrays), got (!qd.ndarray<?xf32>, f32)}}
ad.reverse @k -> @k_grad

// -----

qd.kernel @k(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>) {
}
qd.kernel @k_grad(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>, %da: !qd.ndarray<?xf32>, %db: !qd.ndarray<?xf32>) {
}
// Explicit activity changes the expected signature.
// expected-error@+1 {{'ad.reverse' op expects gradient kernel @k_grad to take (!qd.ndarray<?xf32>, !qd.ndarray<?xf32>, !qd.ndarray<?xf32>) (the arguments of @k, then the adjoints of its active ndarrays), got (!qd.ndarray<?xf32>, !qd.ndarray<?xf32>, !qd.ndarray<?xf32>, !qd.ndarray<?xf32>)}}
ad.reverse @k -> @k_grad {active = [false, true]}

// -----

qd.field @g : !qd.field<f32>
qd.kernel @k() {
}
// expected-error@+1 {{'ad.reverse' op expects @g to be a 'qd.kernel', got 'qd.field'}}
ad.reverse @k -> @g

// -----

qd.kernel @k() {
}
ad.reverse @k
// expected-error@+1 {{'ad.reverse' op declares the gradient of @k a second time}}
ad.reverse @k

// -----

qd.kernel @k() {
  // expected-error@+1 {{'ad.reverse' op expects its parent to be a symbol table (such as 'builtin.module'), got 'qd.kernel'}}
  ad.reverse @k
}

// -----

qd.kernel @k() {
}
// expected-error@+1 {{'ad.reverse' op has unknown property 'gradients'}}
"ad.reverse"() <{kernel = @k, gradients = @k}> : () -> ()

// -----

qd.kernel @k() {
}
%v = arith.constant 1.0 : f32
// expected-error@+1 {{'ad.reverse' op expects 0 operands, got 1}}
"ad.reverse"(%v) <{kernel = @k}> : (f32) -> ()

// -----

// expected-error@+1 {{expected symbol name}}
ad.reverse k
