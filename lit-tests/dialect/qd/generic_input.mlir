// RUN: qd-opt %s | FileCheck %s
// RUN: qd-opt %s | qd-opt --print-op-generic | qd-opt | FileCheck %s
// A kernel written in the generic form only (as `mlir-opt --mlir-print-op-generic` prints it),
// with the empty regions MLIR prints for empty blocks, comes out in the custom syntax.

// CHECK: qd.field @x : !qd.field<4xf32> {needs_grad}
// CHECK-NEXT: qd.field @s : !qd.field<i32>
// CHECK-NEXT: qd.kernel @k(%[[A:.*]]: !qd.ndarray<?xf32>, %[[C:.*]]: i1) {
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[V:.*]] = qd.ndarray_load %[[A]][%[[I]]] : !qd.ndarray<?xf32>
// CHECK-NEXT: %[[P:.*]] = qd.alloca : !qd.ptr<!qd.array<2xf32>>
// CHECK-NEXT: %[[E:.*]] = qd.elem_ptr %[[P]][%[[I]]] : !qd.ptr<!qd.array<2xf32>>
// CHECK-NEXT: qd.local_store %[[V]], %[[E]] : !qd.ptr<f32>
// CHECK-NEXT: qd.while {
// CHECK-NEXT: qd.condition %[[C]]
// CHECK-NEXT: } do {
// CHECK-NEXT: }
// CHECK-NEXT: qd.if %[[C]] {
// CHECK-NEXT: }
// CHECK-NEXT: %{{.*}} = qd.atomic_max %[[V]], @x[%[[I]]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: qd.struct_for () in @s {
// CHECK-NEXT: }
// CHECK-NEXT: }
"builtin.module"() ({
  "qd.field"() <{needs_grad, sym_name = "x", type = !qd.field<4xf32>}> : () -> ()
  "qd.field"() <{sym_name = "s", type = !qd.field<i32>}> : () -> ()
  "qd.kernel"() <{function_type = (!qd.ndarray<?xf32>, i1) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: !qd.ndarray<?xf32>, %arg1: i1):
    "qd.struct_for"() <{field = @x}> ({
    ^bb0(%arg2: i32):
      %0 = "qd.ndarray_load"(%arg0, %arg2) : (!qd.ndarray<?xf32>, i32) -> f32
      %1 = "qd.alloca"() : () -> !qd.ptr<!qd.array<2xf32>>
      %2 = "qd.elem_ptr"(%1, %arg2) : (!qd.ptr<!qd.array<2xf32>>, i32) -> !qd.ptr<f32>
      "qd.local_store"(%0, %2) : (f32, !qd.ptr<f32>) -> ()
      "qd.while"() ({
        "qd.condition"(%arg1) : (i1) -> ()
      }, {
      }) : () -> ()
      "qd.if"(%arg1) ({
      }, {
      }) : (i1) -> ()
      %3 = "qd.atomic_max"(%0, %arg2) <{field = @x}> : (f32, i32) -> f32
    }) : () -> ()
    "qd.struct_for"() <{field = @s}> ({
    }) : () -> ()
  }) : () -> ()
}) : () -> ()
