// REQUIRES: qd-translate
// RUN: qd-translate %s --kernel compute --emit=llvm | FileCheck %s
// RUN: qd-translate %s --kernel compute --grad --emit=llvm | FileCheck %s --check-prefix=GRAD
// RUN: qd-translate %s --kernel compute --emit=llvm --vectorize=off | FileCheck %s --check-prefix=SCALAR
// A range task runs its threads in groups of SIMD lanes (backends/llvm/src/simd). Forward: the
// per-lane local lives in a vector register through the uniform loop (a blend under the group's
// mask, no memory), tanh is vector code (f32 below 0.5, f64 in a block run when a lane is past
// it), and the atomic add to the scalar y is one ordered reduction of the active lanes. A body
// with a loop is emitted once (no full-group copy): every group runs it under its mask.
// Gradient: the adstack's count is uniform, so every push in the loop is one vector store at a
// uniform offset of the interleaved heap, never a scatter.

// CHECK-LABEL: define {{.*}}i32 @compute_task0(
// CHECK: partial:
// CHECK: for.body:
// CHECK-NOT: {{^[a-z.0-9]+:}}
// CHECK: fmul <{{[0-9]+}} x float>
// CHECK: for.end:
// CHECK: call float @llvm.vector.reduce.fadd.v{{[0-9]+}}f32(float -0.000000e+00
// CHECK: vm.tanh.far:
// CHECK-NOT: {{^[a-z.0-9]+:}}
// CHECK: fdiv <{{[0-9]+}} x double>
// CHECK: vm.tanh:
// CHECK-NOT: {{^[a-z.0-9]+:}}
// CHECK: %blend{{[0-9]*}} = select <{{[0-9]+}} x i1> %lanes{{[0-9]*}}, <{{[0-9]+}} x float>
// CHECK-NOT: for.body{{[0-9]+}}:

// GRAD-LABEL: define {{.*}}i32 @compute_grad_task0(
// GRAD-NOT: masked.scatter
// GRAD: call void @llvm.masked.store.v{{[0-9]+}}f32.p0(<{{[0-9]+}} x float> %fmul
// GRAD-NOT: masked.scatter
// GRAD: {{^}}}

// SCALAR-LABEL: define {{.*}}i32 @compute_task0(
// SCALAR-NOT: group:
// SCALAR-NOT: llvm.vector.reduce.fadd

module {
  qd.field @m : !qd.field<i32>
  qd.field @x : !qd.field<1024xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %v = qd.alloca : !qd.ptr<f32>
      %m = qd.load @m[] : i32
      %c0 = arith.constant 0 : i32
      %x_i = qd.load @x[%i] : f32
      qd.local_store %x_i, %v : !qd.ptr<f32>
      qd.range_for %t = %c0 to %m : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        %th = math.tanh %a : f32
        %h = arith.constant 0.5 : f32
        %s = arith.mulf %th, %h : f32
        qd.local_store %s, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %r, @y[] : f32
    }
  }
}
