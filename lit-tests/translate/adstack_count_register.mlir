// REQUIRES: qd-translate
// RUN: qd-translate %s --kernel compute --grad --emit=llvm --vectorize=off | FileCheck %s
// An adstack's count header is private to the running thread: the LLVM backend keeps it in a
// function-local i64 (named count<id>) that O3 promotes to a register, so a push or pop in the
// loops of the gradient is a phi of the count, not an i64 store into the heap and a load back.

// CHECK: define {{.*}}i32 @compute_grad_task0(ptr noalias
// CHECK-NOT: alloca
// CHECK: %count0{{[.0-9]*}} = phi i64
// CHECK-NOT: store i64 {{.*}}, ptr %heap
// CHECK: {{^}}}

module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<16xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        %t = math.tanh %a : f32
        qd.local_store %t, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %r, @y[] : f32
    }
  }
}
