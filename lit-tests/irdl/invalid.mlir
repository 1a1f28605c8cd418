// Upstream mlir-opt rejects, through qd's IRDL, ops whose operands, results, attributes, regions
// or types break their declared constraints (hand-written IR in qd-opt's IRDL form). The last
// chunks show why the IRDL form exists: IRDL ops take no properties and are never terminators.
// REQUIRES: mlir-opt
// RUN: qd-opt --print-irdl -o %t.irdl.mlir
// RUN: mlir-opt --irdl-file=%t.irdl.mlir --split-input-file --verify-diagnostics %s -o /dev/null

// A well-formed op verifies.
%i = "arith.constant"() <{value = 1 : i32}> : () -> i32
%0 = "qd.load"(%i, %i) {field = @x} : (i32, i32) -> f32
%1 = "lowered.alloca"() : () -> !lowered.ptr<!qd.array<4 : i64, f32>, ["private"]>

// -----

// An operand of the wrong type.
%c = "arith.constant"() <{value = 1.0 : f32}> : () -> f32
// expected-error @below {{expected 'i1' but got 'f32'}}
"qd.if"(%c) ({
  "llvm.unreachable"() : () -> ()
}, {
}) : (f32) -> ()

// -----

%c = "arith.constant"() <{value = 1.0 : f32}> : () -> f32
// expected-error @below {{expected base type 'qd.ptr' but got 'builtin.f32'}}
%0 = "qd.local_load"(%c) : (f32) -> f32

// -----

// A variadic operand group: every index is i32.
%i = "arith.constant"() <{value = 1 : i32}> : () -> i32
%j = "arith.constant"() <{value = 1 : i64}> : () -> i64
// expected-error @below {{expected 'i32' but got 'i64'}}
%0 = "qd.load"(%i, %j) {field = @x} : (i32, i64) -> f32

// -----

// A global pointer where a private one is declared.
%g = "lowered.temp_ptr"() {slot = 0 : i64} : () -> !lowered.ptr<f32, []>
%i = "arith.constant"() <{value = 1 : i64}> : () -> i64
// expected-error @below {{expected '["private"]' but got '[]'}}
%0 = "lowered.elem_ptr"(%g, %i) : (!lowered.ptr<f32, []>, i64) -> !lowered.ptr<f32, ["private"]>

// -----

// A result of the wrong type.
// expected-error @below {{expected 'i64' but got 'i32'}}
%0 = "lowered.thread_id"() : () -> i32

// -----

// The wrong number of operands.
// expected-error @below {{op expects exactly 1 operands, but got 0}}
"qd.condition"() : () -> ()

// -----

// A required property missing.
%i = "arith.constant"() <{value = 1 : i32}> : () -> i32
// expected-error @below {{'qd.load' op attribute "field" is expected but not provided}}
%0 = "qd.load"(%i) : (i32) -> f32

// -----

// A property outside its values.
%o = "arith.constant"() <{value = 1 : i64}> : () -> i64
// expected-error @below {{'"bytes"' does not satisfy the constraint}}
%0 = "lowered.heap_ptr"(%o) {heap = "bytes"} : (i64) -> !lowered.ptr<f32, []>

// -----

// The wrong number of regions.
// expected-error @below {{'qd.while' op unexpected number of regions: expected 2 but got 1}}
"qd.while"() ({
  "llvm.unreachable"() : () -> ()
}) : () -> ()

// -----

// A type parameter outside its constraint: a stack of index.
// expected-error @below {{'index' does not satisfy the constraint}}
%0 = "adstack.alloca"() : () -> !adstack.stack<index>

// -----

// Properties (qd's generic form) are not accepted by IRDL ops: the IRDL form writes them as attributes.
// expected-error @below {{extensible Dialects don't support properties}}
"qd.field"() <{sym_name = "x", type = !qd.field_type<array<i64: 4>, f32>}> : () -> ()

// -----

// An IRDL op cannot be a terminator: the IRDL form closes its blocks with llvm.unreachable.
"qd.kernel"() ({
  // expected-error @below {{block with no terminator}}
  "qd.break"() : () -> ()
}) {function_type = () -> (), sym_name = "k"} : () -> ()
