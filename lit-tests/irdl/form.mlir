// qd-opt --print-irdl-form: the generic form that upstream mlir-opt verifies against
// --print-irdl's IRDL. Properties of qd's ops move to the attribute dictionary (IRDL ops take no
// properties), each block of their regions ends with llvm.unreachable after the op's own
// terminator (IRDL ops are never terminators), qd's types are written with their IRDL
// parameters (!qd.field is !qd.field_type: IRDL's types and ops share a symbol table) and a
// typed attribute's text is a string parameter. Upstream ops (arith) keep their properties.
// REQUIRES: mlir-opt
// RUN: qd-opt --print-irdl-form %s | FileCheck %s
// RUN: qd-opt --print-irdl -o %t.irdl.mlir
// RUN: qd-opt --print-irdl-form %s | mlir-opt --irdl-file=%t.irdl.mlir --mlir-print-op-generic | FileCheck %s
// The form is for mlir-opt only: qd reads its own generic form, not this one.
// RUN: qd-opt --print-irdl-form %s | not qd-opt 2>&1 | FileCheck %s --check-prefix=QD

// CHECK: "qd.field"() {needs_grad, sym_name = "x", type = !qd.field_type<array<i64: 8>, f32>} : () -> ()
qd.field @x : !qd.field<8xf32> {needs_grad}
// CHECK: "qd.field"() {needs_grad, sym_name = "y", type = !qd.field_type<array<i64>, f32>} : () -> ()
qd.field @y : !qd.field<f32> {needs_grad}

// CHECK: "qd.kernel"() ({
// CHECK-NEXT: ^bb0(%{{.*}}: !qd.ndarray<array<i64: -9223372036854775808>, f32>, %{{.*}}: f32):
qd.kernel @k(%a: !qd.ndarray<?xf32>, %w: f32) {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  // CHECK: "qd.range_for"
  qd.range_for %i = %c0 to %c8 : i32 {
    // CHECK: "qd.alloca"() : () -> !qd.ptr<!qd.struct<[f32, !qd.array<4 : i64, i32>]>>
    %st = qd.alloca : !qd.ptr<!qd.struct<f32, !qd.array<4xi32>>>
    // CHECK: "qd.member_ptr"(%{{.*}}) {index = 0 : i64}
    %p = qd.member_ptr %st[0] : !qd.ptr<!qd.struct<f32, !qd.array<4xi32>>>
    qd.local_store %w, %p : !qd.ptr<f32>
    // CHECK: "arith.cmpf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<none>, predicate = 2 : i64}>
    %c = arith.cmpf ogt, %w, %w : f32
    // CHECK: "qd.if"(%{{.*}}) ({
    qd.if %c {
      // CHECK-NEXT: "qd.store"(%{{.*}}, %{{.*}}) {field = @x} : (f32, i32) -> ()
      // CHECK-NEXT: "llvm.unreachable"() : () -> ()
      // CHECK-NEXT: }, {
      // CHECK-NEXT: }) : (i1) -> ()
      qd.store %w, @x[%i] : f32
    }
    // CHECK-NEXT: "qd.local_store"(%{{.*}}, %{{.*}}) : (f32, !qd.ptr<f32>) -> ()
    qd.local_store %w, %p : !qd.ptr<f32>
    // CHECK-NEXT: "llvm.unreachable"() : () -> ()
  }
  // CHECK: }) {function_type = (!qd.ndarray<array<i64: -9223372036854775808>, f32>, f32) -> (), sym_name = "k"} : () -> ()
}

// CHECK: "qd.kernel"() ({
qd.kernel @k_grad(%a: !qd.ndarray<?xf32>, %w: f32) {
  // CHECK: "adstack.alloca"() {max_size = 100 : i64, size_expr = #adstack.size<"@y[]:i32 + 1">} : () -> !adstack.stack<f32>
  %s = adstack.alloca : f32 {max_size = 100, size_expr = #adstack.size<@y[]:i32 + 1>}
  adstack.push %s, %w : f32
  // CHECK: "adstack.pop"(%{{.*}}) : (!adstack.stack<f32>) -> ()
  adstack.pop %s : f32
}
// CHECK: "ad.reverse"() {kernel = @k} : () -> ()
ad.reverse @k

// QD: error:
