// REQUIRES: mlir-opt
// Upstream MLIR 22 accepts the generic form of every shared example (with qd unregistered), and
// what it prints back parses, verifies and prints as the original does.
// RUN: qd-opt %S/../../examples/control_flow.mlir --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt | FileCheck %s --check-prefix=CF
// RUN: qd-opt %S/../../examples/dynamic_loop.mlir --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt | FileCheck %s --check-prefix=DL
// RUN: qd-opt %S/../../examples/local_array.mlir --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt | FileCheck %s --check-prefix=LA
// RUN: qd-opt %S/../../examples/ndarray_bound.mlir --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt | FileCheck %s --check-prefix=NB
// RUN: qd-opt %S/../../examples/triangular.mlir --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt | FileCheck %s --check-prefix=TR
// Byte-for-byte: the custom form after the trip through mlir-opt equals the direct one.
// RUN: qd-opt %S/../../examples/control_flow.mlir > %t.direct
// RUN: qd-opt %S/../../examples/control_flow.mlir --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt > %t.via
// RUN: diff %t.direct %t.via

// CF: qd.field @x : !qd.field<6xf32> {needs_grad}
// CF: qd.kernel @compute(%{{.*}}: !qd.ndarray<?xf32>, %{{.*}}: f32) {
// CF: qd.struct_for (%{{.*}}) in @x {
// CF: qd.member_ptr %{{.*}}[1] : !qd.ptr<!qd.struct<f32, i32>>
// CF: qd.while {
// CF: qd.condition %{{.*}}
// CF-NEXT: } do {
// CF: qd.ndarray_shape %{{.*}}, 0 : !qd.ndarray<?xf32>
// CF: qd.if %{{.*}} {
// CF: } else {
// CF: qd.break
// CF: qd.atomic_add %{{.*}}, @y[] : f32

// DL: qd.field @n : !qd.field<i32>
// DL: qd.struct_for (%{{.*}}) in @x {
// DL: qd.range_for %{{.*}} = %{{.*}} to %{{.*}} : i32 {
// DL: qd.atomic_add %{{.*}}, @y[] : f32

// LA: qd.field @x : !qd.field<4x10xf32> {needs_grad}
// LA: qd.alloca : !qd.ptr<!qd.array<10xf32>>
// LA: qd.elem_ptr %{{.*}}[%{{.*}}] : !qd.ptr<!qd.array<10xf32>>
// LA: arith.remsi

// NB: qd.kernel @compute(%[[A:.*]]: !qd.ndarray<?xi32>) {
// NB: qd.ndarray_load %[[A]][%{{.*}}] : !qd.ndarray<?xi32>

// TR: qd.range_for %[[J:.*]] = %{{.*}} to %{{.*}} : i32 {
// TR: qd.range_for %{{.*}} = %{{.*}} to %[[J]] : i32 {
// TR: math.tanh
