// RUN: qd-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics
// Every arith op rejects ill-typed or ill-formed IR with upstream's diagnostic (generic input
// reaches the verifier with any operands, results and properties). Cases marked "qd only" have
// no upstream twin: mlir-opt drops unknown properties, and words its parse errors differently.

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.constant' op requires attribute 'value'}}
  %0 = "arith.constant"() : () -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = 1 : i64}> : () -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = "s"}> : () -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.constant' op requires zero operands}}
  %0 = "arith.constant"(%a) <{value = 5 : i32}> : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.constant' op integer return type must be signless}}
  %0 = arith.constant 1 : ui32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "arith.addi"(%x, %x) : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.addi' op expected 2 operands, but found 1}}
  %0 = "arith.addi"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.addi' op requires one result}}
  "arith.addi"(%a, %a) : (i32, i32) -> ()
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{invalid properties {overflowFlags = 1 : i32} for op arith.addi: Invalid attribute `overflowFlags` in property conversion: 1 : i32}}
  %0 = "arith.addi"(%a, %a) <{overflowFlags = 1 : i32}> : (i32, i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // qd only.
  // expected-error@+1 {{'arith.addi' op does not have a property named 'foo'}}
  %0 = "arith.addi"(%a, %a) <{foo = 1 : i32}> : (i32, i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.subi' op requires the same type for all operands and results}}
  %0 = "arith.subi"(%a, %a) : (i32, i32) -> i64
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.muli' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "arith.muli"(%x, %x) : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.divsi' op operand #1 must be signless-integer-like, but got 'f32'}}
  %0 = "arith.divsi"(%a, %x) : (i32, f32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.divui' op result #0 must be signless-integer-like, but got 'f32'}}
  %0 = "arith.divui"(%a, %a) : (i32, i32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.remsi' op expected 2 operands, but found 3}}
  %0 = "arith.remsi"(%a, %a, %a) : (i32, i32, i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.remui' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "arith.remui"(%x, %x) : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.minsi' op requires the same type for all operands and results}}
  %0 = "arith.minsi"(%a, %b) : (i32, i64) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.maxsi' op operand #0 must be signless-integer-like, but got 'f16'}}
  %0 = "arith.maxsi"(%h, %h) : (f16, f16) -> f16
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.andi' op requires the same type for all operands and results}}
  %0 = "arith.andi"(%c, %a) : (i1, i32) -> i1
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.ori' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "arith.ori"(%x, %x) : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{invalid properties {fastmath = #arith.fastmath<none>} for op arith.xori: this operation does not support properties}}
  %0 = "arith.xori"(%a, %a) <{fastmath = #arith.fastmath<none>}> : (i32, i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.shli' op requires the same type for all operands and results}}
  %0 = "arith.shli"(%a, %b) : (i32, i64) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.shrsi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "arith.shrsi"(%x, %x) : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.shrui' op expected 2 operands, but found 1}}
  %0 = "arith.shrui"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.addf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "arith.addf"(%a, %a) : (i32, i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{invalid properties {fastmath = 1 : i32} for op arith.addf: Invalid attribute `fastmath` in property conversion: 1 : i32}}
  %0 = "arith.addf"(%x, %x) <{fastmath = 1 : i32}> : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.subf' op requires the same type for all operands and results}}
  %0 = "arith.subf"(%x, %d) : (f32, f64) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.mulf' op requires the same type for all operands and results}}
  %0 = "arith.mulf"(%x, %x) : (f32, f32) -> f64
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.divf' op operand #0 must be floating-point-like, but got 'index'}}
  %0 = "arith.divf"(%i, %i) : (index, index) -> index
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.remf' op expected 2 operands, but found 1}}
  %0 = "arith.remf"(%x) : (f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.negf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "arith.negf"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.negf' op requires a single operand}}
  %0 = "arith.negf"(%x, %x) : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.minimumf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "arith.minimumf"(%a, %a) : (i32, i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.maximumf' op requires the same type for all operands and results}}
  %0 = "arith.maximumf"(%x, %d) : (f32, f64) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.cmpi' op requires attribute 'predicate'}}
  %0 = "arith.cmpi"(%a, %a) : (i32, i32) -> i1
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{invalid properties {predicate = 42 : i64} for op arith.cmpi: Invalid attribute `predicate` in property conversion: 42 : i64}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 42 : i64}> : (i32, i32) -> i1
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{invalid properties {predicate = 1 : i32} for op arith.cmpi: Invalid attribute `predicate` in property conversion: 1 : i32}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 1 : i32}> : (i32, i32) -> i1
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.cmpi' op result #0 must be bool-like, but got 'i32'}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 1 : i64}> : (i32, i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.cmpi' op requires all operands to have the same type}}
  %0 = "arith.cmpi"(%a, %b) <{predicate = 1 : i64}> : (i32, i64) -> i1
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.cmpi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "arith.cmpi"(%x, %x) <{predicate = 1 : i64}> : (f32, f32) -> i1
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.cmpf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "arith.cmpf"(%a, %a) <{predicate = 1 : i64}> : (i32, i32) -> i1
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{invalid properties {predicate = 16 : i64} for op arith.cmpf: Invalid attribute `predicate` in property conversion: 16 : i64}}
  %0 = "arith.cmpf"(%x, %x) <{predicate = 16 : i64}> : (f32, f32) -> i1
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.select' op operand #0 must be bool-like, but got 'i32'}}
  %0 = "arith.select"(%a, %x, %x) : (i32, f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "arith.select"(%c, %x, %d) : (i1, f32, f64) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.select' op expected 3 operands, but found 2}}
  %0 = "arith.select"(%c, %x) : (i1, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'f32'}}
  %0 = "arith.sitofp"(%x) : (f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'index'}}
  %0 = "arith.sitofp"(%i) : (index) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.uitofp' op result #0 must be floating-point-like, but got 'i32'}}
  %0 = "arith.uitofp"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.fptosi' op result #0 must be signless-fixed-width-integer-like, but got 'f32'}}
  %0 = "arith.fptosi"(%x) : (f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.fptoui' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "arith.fptoui"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.extf' op operand type 'f64' and result type 'f32' are cast incompatible}}
  %0 = "arith.extf"(%d) : (f64) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.extf' op operand type 'bf16' and result type 'f16' are cast incompatible}}
  %0 = "arith.extf"(%bf) : (bf16) -> f16
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.truncf' op operand type 'f32' and result type 'f64' are cast incompatible}}
  %0 = "arith.truncf"(%x) : (f32) -> f64
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{invalid properties {roundingmode = 9 : i32} for op arith.truncf: Invalid attribute `roundingmode` in property conversion: 9 : i32}}
  %0 = "arith.truncf"(%d) <{roundingmode = 9 : i32}> : (f64) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.extsi' op operand type 'i64' and result type 'i32' are cast incompatible}}
  %0 = "arith.extsi"(%b) : (i64) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.extui' op operand type 'i32' and result type 'i32' are cast incompatible}}
  %0 = "arith.extui"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = "arith.trunci"(%a) : (i32) -> i64
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = "arith.index_cast"(%a) : (i32) -> i64
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.index_cast' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = "arith.index_cast"(%i) : (index) -> index
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.bitcast' op operand type 'i32' and result type 'f64' are cast incompatible}}
  %0 = "arith.bitcast"(%a) : (i32) -> f64
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.bitcast' op operand #0 must be signless-integer-or-float-like or memref of signless-integer or float, but got 'index'}}
  %0 = "arith.bitcast"(%i) : (index) -> i64
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw}}
  %0 = arith.addi %a, %a overflow<bogus> : i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  %0 = arith.addf %x, %x fastmath<bogus> : f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = arith.cmpi bogus, %a, %a : i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // qd only.
  // expected-error@+1 {{expected ':'}}
  %0 = arith.cmpf olt, %x, %x overflow<nsw> : f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{unknown attribute `bogus` in dialect `arith`}}
  %0 = "arith.addf"(%x, %x) <{fastmath = #arith.bogus<none>}> : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.maxui' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "arith.maxui"(%x, %x) : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.minui' op requires the same type for all operands and results}}
  %0 = "arith.minui"(%a, %b) : (i32, i64) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.ceildivsi' op result #0 must be signless-integer-like, but got 'f32'}}
  %0 = "arith.ceildivsi"(%a, %a) : (i32, i32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.floordivsi' op expected 2 operands, but found 1}}
  %0 = "arith.floordivsi"(%a) : (i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{invalid properties {overflowFlags = #arith.overflow<nsw>} for op arith.ceildivui: this operation does not support properties}}
  %0 = "arith.ceildivui"(%a, %a) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.maxnumf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "arith.maxnumf"(%a, %a) : (i32, i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.minnumf' op requires the same type for all operands and results}}
  %0 = "arith.minnumf"(%x, %d) : (f32, f64) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{invalid properties {fastmath = #arith.overflow<nsw>} for op arith.minnumf: Invalid attribute `fastmath` in property conversion: #arith.overflow<nsw>}}
  %0 = "arith.minnumf"(%x, %x) <{fastmath = #arith.overflow<nsw>}> : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.index_castui' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_castui %a : i32 to i64
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.index_castui' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = "arith.index_castui"(%i) : (index) -> index
  "test.end"() : () -> ()
}) : () -> ()

// -----

"test.func"() ({
^bb0(%a: i32, %b: i64, %x: f32, %d: f64, %c: i1, %i: index, %h: f16, %bf: bf16):
  // expected-error@+1 {{'arith.index_castui' op operand #0 must be signless-integer-like or memref of signless-integer, but got 'f32'}}
  %0 = "arith.index_castui"(%x) : (f32) -> index
  "test.end"() : () -> ()
}) : () -> ()
