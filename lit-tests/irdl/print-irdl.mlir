// qd-opt --print-irdl: qd's dialects (all but upstream MLIR's builtin, arith, math and func) in
// IRDL, generated from the ops' declarations; upstream mlir-opt parses it and loads it.
// REQUIRES: mlir-opt
// RUN: qd-opt --print-irdl | FileCheck %s
// RUN: qd-opt --print-irdl -o %t.irdl.mlir
// RUN: mlir-opt %t.irdl.mlir -o /dev/null
// RUN: mlir-opt --irdl-file=%t.irdl.mlir %s -o /dev/null
// No input is read: a file argument is ignored.
// RUN: qd-opt --print-irdl %s | diff - %t.irdl.mlir

// CHECK-LABEL: irdl.dialect @qd {
// The type !qd.field is @field_type: IRDL's types and ops share a symbol table, and qd.field is an op.
// CHECK:      // !qd.field: a dense global array
// CHECK-NEXT: irdl.type @field_type {
// CHECK-NEXT:   %shape = irdl.base "#builtin.dense_array"
// CHECK-NEXT:   %elem = irdl.any
// CHECK-NEXT:   irdl.parameters(shape: %shape, elem: %elem)
// CHECK:      irdl.type @struct {
// CHECK-NEXT:   %members = irdl.base "#builtin.array"
// CHECK:      irdl.operation @field {
// CHECK-NEXT:   %sym_name = irdl.base "#builtin.string"
// CHECK-NEXT:   %type = irdl.base "#builtin.type"
// CHECK-NEXT:   irdl.attributes {"sym_name" = %sym_name, "type" = %type}
// CHECK-NEXT:   // optional, so not listed (IRDL attributes are all required): needs_grad
// CHECK:      irdl.operation @if {
// CHECK-NEXT:   %condition = irdl.is i1
// CHECK-NEXT:   %then = irdl.region  // at most one block
// CHECK-NEXT:   %else_region = irdl.region
// CHECK-NEXT:   irdl.operands(condition: %condition)
// CHECK-NEXT:   irdl.regions(then: %then, else_region: %else_region)
// CHECK:      irdl.operation @atomic_add {
// CHECK-NEXT:   %value = irdl.any
// CHECK-NEXT:   %indices = irdl.is i32
// CHECK-NEXT:   %old = irdl.any
// CHECK-NEXT:   %field = irdl.base "#builtin.symbol_ref"  // wider than a flat symbol reference: IRDL cannot exclude nested references
// CHECK-NEXT:   irdl.operands(value: %value, indices: variadic %indices)
// CHECK-NEXT:   irdl.results(old: optional %old)
// CHECK-NEXT:   irdl.attributes {"field" = %field}
// CHECK:      irdl.operation @ndarray_load {
// CHECK-NEXT:   %array = irdl.base @qd::@ndarray
// CHECK:      irdl.operation @local_load {
// CHECK-NEXT:   %ptr = irdl.base @qd::@ptr

// CHECK-LABEL: irdl.dialect @ad {
// CHECK:      irdl.operation @load_element {
// CHECK:        %path = irdl.base "#builtin.dense_array"  // wider than an array<i64: ...> of indices: IRDL cannot require integer elements

// CHECK-LABEL: irdl.dialect @adstack {
// CHECK:      irdl.type @stack {
// CHECK-NEXT:   %elem.0 = irdl.base "!builtin.integer"
// CHECK-NEXT:   %elem.1 = irdl.is f16
// CHECK-NEXT:   %elem.2 = irdl.is bf16
// CHECK-NEXT:   %elem.3 = irdl.is f32
// CHECK-NEXT:   %elem.4 = irdl.is f64
// CHECK-NEXT:   %elem = irdl.any_of(%elem.0, %elem.1, %elem.2, %elem.3, %elem.4)
// CHECK-NEXT:   irdl.parameters(elem: %elem)
// CHECK:      // #adstack.size: a symbolic bound on a stack's depth (a SizeExpr) (IRDL form: the text between the angle brackets, as a string)
// CHECK-NEXT: irdl.attribute @size {
// CHECK-NEXT:   %body = irdl.base "#builtin.string"
// CHECK:      irdl.operation @alloca {
// CHECK-NEXT:   %result = irdl.base @adstack::@stack
// CHECK-NEXT:   irdl.results(result: %result)
// CHECK-NEXT:   // optional, so not listed (IRDL attributes are all required): id, max_size, size_expr, primal_elided

// CHECK-LABEL: irdl.dialect @lowered {
// CHECK:      irdl.type @ptr {
// CHECK-NEXT:   %pointee = irdl.any
// CHECK-NEXT:   %space.0 = irdl.is []
// CHECK-NEXT:   %space.1 = irdl.is ["private"]
// CHECK-NEXT:   %space = irdl.any_of(%space.0, %space.1)
// CHECK:      irdl.operation @ndarray_dim {
// CHECK-NEXT:   %result = irdl.is i64
// CHECK:      irdl.operation @elem_ptr {
// CHECK-NEXT:   %base.0 = irdl.any
// CHECK-NEXT:   %base.1 = irdl.is ["private"]
// CHECK-NEXT:   %base = irdl.parametric @lowered::@ptr<%base.0, %base.1>
// CHECK-NEXT:   %index = irdl.is i64
// CHECK:      irdl.operation @bounds_check {
// CHECK-NEXT:   %bounds = irdl.is i64
// CHECK-NEXT:   %what = irdl.base "#builtin.string"
// CHECK-NEXT:   irdl.operands(bounds: variadic %bounds)
// CHECK:      irdl.operation @heap_ptr {
// CHECK:        %heap = irdl.any_of(%heap.0, %heap.1)

// Upstream dialects are not redefined.
// CHECK-NOT: irdl.dialect @arith
// CHECK-NOT: irdl.dialect @math
// CHECK-NOT: irdl.dialect @func
// CHECK-NOT: irdl.dialect @builtin
