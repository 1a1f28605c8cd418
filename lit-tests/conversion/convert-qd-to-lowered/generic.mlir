// REQUIRES: mlir-opt
// The generic form of what convert-qd-to-lowered makes verifies in upstream MLIR 22 (lowered, qd
// and ad unregistered there), and what mlir-opt prints back reads in qd as the same IR.
// RUN: qd-opt %S/control.mlir -p convert-qd-to-lowered > %t.control
// RUN: qd-opt %S/control.mlir -p convert-qd-to-lowered --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt > %t.control.via
// RUN: diff %t.control %t.control.via
// RUN: qd-opt %S/tasks.mlir --split-input-file -p convert-qd-to-lowered --print-op-generic | mlir-opt --allow-unregistered-dialect --split-input-file --mlir-print-op-generic | qd-opt --split-input-file | FileCheck %S/tasks.mlir
// RUN: qd-opt %S/../../../examples/grad/break_loop.mlir -p reverse-mode-ad,determine-ad-stack-size,convert-qd-to-lowered > %t.grad
// RUN: qd-opt %S/../../../examples/grad/break_loop.mlir -p reverse-mode-ad,determine-ad-stack-size,convert-qd-to-lowered --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt > %t.grad.via
// RUN: diff %t.grad %t.grad.via
// RUN: qd-opt %S/../../../examples/grad/break_loop.mlir -p reverse-mode-ad,determine-ad-stack-size,convert-qd-to-lowered --print-op-generic | FileCheck %s

// CHECK: "lowered.kernel"() <{function_type = (f32) -> (), sym_name = "compute_grad", temps = 0 : i64}> ({
// CHECK: "lowered.task"() <{adstacks = array<i64: 0>, begin = 0 : i64, end = 8 : i64, kind = "range", sym_name = "compute_grad_0"}> ({
// CHECK: "lowered.adstack_stride"() <{heap = "float"}> : () -> i64
// CHECK: "lowered.heap_ptr"(%{{.*}}) <{heap = "float"}> : (i64) -> !lowered.ptr<i64>
// CHECK: "lowered.field_ptr"() <{field = @x, grad}> : () -> !lowered.ptr<f32>
// CHECK: "lowered.adstack_overflow"() <{id = 0 : i64}> : () -> ()
