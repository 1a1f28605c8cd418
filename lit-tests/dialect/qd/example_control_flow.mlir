// RUN: qd-opt %S/../../../examples/control_flow.mlir | qd-opt | FileCheck %s
// RUN: qd-opt %S/../../../examples/control_flow.mlir --print-op-generic | qd-opt | FileCheck %s
// examples/control_flow.mlir parses, verifies and prints back (custom and through the generic
// form): qd.while, qd.if/else, qd.break in a serial loop, an ndarray shape, a local struct.

// CHECK: qd.field @x : !qd.field<6xf32> {needs_grad}
// CHECK-NEXT: qd.field @y : !qd.field<f32> {needs_grad}
// CHECK-NEXT: qd.field @steps : !qd.field<6xi32>
// CHECK-NEXT: qd.kernel @compute(%[[W:.*]]: !qd.ndarray<?xf32>, %[[LIMIT:.*]]: f32) {
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[ST:.*]] = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
// CHECK-NEXT: %[[PV:.*]] = qd.member_ptr %[[ST]][0] : !qd.ptr<!qd.struct<f32, i32>>
// CHECK-NEXT: %[[PC:.*]] = qd.member_ptr %[[ST]][1] : !qd.ptr<!qd.struct<f32, i32>>
// CHECK-NEXT: %[[XI:.*]] = qd.load @x[%[[I]]] : f32
// CHECK-NEXT: qd.local_store %[[XI]], %[[PV]] : !qd.ptr<f32>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: qd.local_store %[[C0]], %[[PC]] : !qd.ptr<i32>
// CHECK-NEXT: qd.while {
// CHECK-NEXT: %[[V:.*]] = qd.local_load %[[PV]] : !qd.ptr<f32>
// CHECK-NEXT: %[[K:.*]] = qd.local_load %[[PC]] : !qd.ptr<i32>
// CHECK-NEXT: %[[SMALL:.*]] = arith.cmpf olt, %[[V]], %[[LIMIT]] : f32
// CHECK-NEXT: %[[C50:.*]] = arith.constant 50 : i32
// CHECK-NEXT: %[[FEW:.*]] = arith.cmpi slt, %[[K]], %[[C50]] : i32
// CHECK-NEXT: %[[GO:.*]] = arith.andi %[[SMALL]], %[[FEW]] : i1
// CHECK-NEXT: qd.condition %[[GO]]
// CHECK-NEXT: } do {
// CHECK-NEXT: qd.local_load %[[PV]] : !qd.ptr<f32>
// CHECK-NEXT: arith.constant 1.300000e+00 : f32
// CHECK-NEXT: arith.constant 5.000000e-02 : f32
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: %[[S:.*]] = arith.addf
// CHECK-NEXT: qd.local_store %[[S]], %[[PV]] : !qd.ptr<f32>
// CHECK-NEXT: %[[K0:.*]] = qd.local_load %[[PC]] : !qd.ptr<i32>
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[K0]], %[[C1]] : i32
// CHECK-NEXT: qd.local_store %[[K1]], %[[PC]] : !qd.ptr<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[KF:.*]] = qd.local_load %[[PC]] : !qd.ptr<i32>
// CHECK-NEXT: qd.store %[[KF]], @steps[%[[I]]] : i32
// CHECK-NEXT: %[[LEN:.*]] = qd.ndarray_shape %[[W]], 0 : !qd.ndarray<?xf32>
// CHECK-NEXT: qd.range_for %[[T:.*]] = %[[C0]] to %[[LEN]] : i32 {
// CHECK-NEXT: %[[WT:.*]] = qd.ndarray_load %[[W]][%[[T]]] : !qd.ndarray<?xf32>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[POS:.*]] = arith.cmpf ogt, %[[WT]], %[[ZERO]] : f32
// CHECK-NEXT: %[[VV:.*]] = qd.local_load %[[PV]] : !qd.ptr<f32>
// CHECK-NEXT: qd.if %[[POS]] {
// CHECK-NEXT: %[[SN:.*]] = math.sin %[[VV]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[WT]], %[[SN]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[VV]], %[[D]] : f32
// CHECK-NEXT: qd.local_store %[[R]], %[[PV]] : !qd.ptr<f32>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[R2:.*]] = arith.mulf %[[VV]], %[[H]] : f32
// CHECK-NEXT: qd.local_store %[[R2]], %[[PV]] : !qd.ptr<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V2:.*]] = qd.local_load %[[PV]] : !qd.ptr<f32>
// CHECK-NEXT: %[[TEN:.*]] = arith.constant 1.000000e+01 : f32
// CHECK-NEXT: %[[BIG:.*]] = arith.cmpf ogt, %[[V2]], %[[TEN]] : f32
// CHECK-NEXT: qd.if %[[BIG]] {
// CHECK-NEXT: qd.break
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: %[[FIN:.*]] = qd.local_load %[[PV]] : !qd.ptr<f32>
// CHECK-NEXT: qd.atomic_add %[[FIN]], @y[] : f32
// CHECK-NEXT: }
// CHECK-NEXT: }
