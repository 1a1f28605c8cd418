// REQUIRES: qd-translate
// RUN: qd-translate %s --kernel k --emit=spirv-asm | FileCheck %s
// RUN: qd-translate %s --kernel k --grad --emit=spirv-asm | FileCheck %s --check-prefix=GRAD
// RUN: qd-translate %s --kernel k --emit=spirv -o %t.spv
// RUN: spirv-val --target-env vulkan1.2 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s --check-prefix=DIS
// A kernel of two tasks (a serial store, then a struct_for over @x with a dynamic range_for
// inside) becomes one SPIR-V module with a GLCompute entry point per task; the range_for is a
// structured loop: a header with its counter's phi, OpLoopMerge naming the merge and continue
// blocks, then the conditional branch into the body or out to the merge.

// CHECK: OpEntryPoint GLCompute %[[T0:[0-9]+]] "k_task0"
// CHECK: OpEntryPoint GLCompute %[[T1:[0-9]+]] "k_task1"
// CHECK: OpExecutionMode %[[T0]] LocalSize 1 1 1
// CHECK: OpExecutionMode %[[T1]] LocalSize 64 1 1
// CHECK: OpDecorate %{{[0-9]+}} DescriptorSet 0
// CHECK: %[[I:[0-9]+]] = OpPhi
// CHECK-NEXT: %[[C:[0-9]+]] = OpSLessThan %{{[0-9]+}} %[[I]]
// CHECK-NEXT: OpLoopMerge %[[MERGE:[0-9]+]] %[[CONT:[0-9]+]] None
// CHECK-NEXT: OpBranchConditional %[[C]] %{{[0-9]+}} %[[MERGE]]
// CHECK: %[[CONT]] = OpLabel
// CHECK-NEXT: %{{[0-9]+}} = OpIAdd %{{[0-9]+}} %[[I]]
// CHECK-NEXT: OpBranch
// CHECK: %[[MERGE]] = OpLabel

// GRAD: OpEntryPoint GLCompute %{{[0-9]+}} "k_grad_task0"
// GRAD: OpLoopMerge

// DIS: OpEntryPoint GLCompute %{{.*}} "k_task0"
// DIS: OpEntryPoint GLCompute %{{.*}} "k_task1"

module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<16xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @k() {
    %z = arith.constant 0.0 : f32
    qd.store %z, @y[] : f32
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        %k = arith.constant 0.95 : f32
        %m = arith.mulf %a, %k : f32
        qd.local_store %m, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %r, @y[] : f32
    }
  }
}
