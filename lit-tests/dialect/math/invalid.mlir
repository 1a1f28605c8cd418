// RUN: qd-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics
// Every math op rejects ill-typed or ill-formed IR with upstream's diagnostic.

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.sin' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.sin"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.cos' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.cos"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.tan' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.tan"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.exp' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.exp"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.exp2' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.exp2"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.log' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.log"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.log2' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.log2"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.sqrt' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.sqrt"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.rsqrt' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.rsqrt"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.tanh' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.tanh"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.absf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.absf"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.floor' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.floor"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.ceil' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.ceil"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.sin' op requires the same type for all operands and results}}
  %0 = "math.sin"(%x) : (f32) -> f64
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.sqrt' op requires a single operand}}
  %0 = "math.sqrt"(%x, %x) : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.powf' op requires the same type for all operands and results}}
  %0 = "math.powf"(%x, %d) : (f32, f64) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.powf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.powf"(%a, %a) : (i32, i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.atan2' op expected 2 operands, but found 1}}
  %0 = "math.atan2"(%x) : (f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.atan2' op result #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.atan2"(%x, %x) : (f32, f32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.fma' op expected 3 operands, but found 2}}
  %0 = "math.fma"(%x, %x) : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.fma' op requires the same type for all operands and results}}
  %0 = "math.fma"(%x, %x, %d) : (f32, f32, f64) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{invalid properties {fastmath = #arith.overflow<nsw>} for op math.exp: Invalid attribute `fastmath` in property conversion: #arith.overflow<nsw>}}
  %0 = "math.exp"(%x) <{fastmath = #arith.overflow<nsw>}> : (f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.cos' op requires one result}}
  "math.cos"(%x) : (f32) -> ()
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  %0 = math.tanh %x fastmath<quick> : f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.asinh' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.asinh"(%a) <{fastmath = #arith.fastmath<none>}> : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.erfc' op requires the same type for all operands and results}}
  %0 = "math.erfc"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f64
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.copysign' op requires the same type for all operands and results}}
  %0 = "math.copysign"(%x, %d) <{fastmath = #arith.fastmath<none>}> : (f32, f64) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.fpowi' op operand #1 must be signless-integer-like, but got 'f32'}}
  %0 = "math.fpowi"(%x, %x) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.fpowi' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.fpowi"(%a, %a) <{fastmath = #arith.fastmath<none>}> : (i32, i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.fpowi' op failed to verify that all of {lhs, result} have same type}}
  %0 = "math.fpowi"(%x, %a) <{fastmath = #arith.fastmath<none>}> : (f32, i32) -> f64
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.fpowi' op expected 2 operands, but found 1}}
  %0 = "math.fpowi"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.absi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "math.absi"(%x) : (f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{invalid properties {fastmath = #arith.fastmath<none>} for op math.absi: this operation does not support properties}}
  %0 = "math.absi"(%a) <{fastmath = #arith.fastmath<none>}> : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.isnan' op result #0 must be bool-like, but got 'i32'}}
  %0 = "math.isnan"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{'math.isinf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.isinf"(%a) <{fastmath = #arith.fastmath<none>}> : (i32) -> i1
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // expected-error@+1 {{expected ':'}}
  %0 = math.isfinite %x fastmath<nnan> : f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %x: f32, %d: f64):
  // The exponent's type is missing: the error is at the next token.
  // expected-error@+2 {{expected ','}}
  %0 = math.fpowi %x, %a : f32
  "test.end"() : () -> ()
}) : () -> ()
