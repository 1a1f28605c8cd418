// REQUIRES: qd-translate
// RUN: qd-translate %s --kernel compute --grad --emit=llvm --vectorize=off | FileCheck %s
// The LLVM backend caches the adstack heap slot each access last wrote or read in registers
// (codegen/topcache.rs): the forward sweep's top read after a push, and the reverse sweep's
// adjoint read after an accumulation, compare the slot's offset with the cached one and take the
// cached value, instead of waiting for memory to forward the store just made. (The body is
// sin(v)*0.95 + 0.01, which reads v in reverse: a linear body's stack is elided by minimize-tape.)

// CHECK: define {{.*}}i32 @compute_grad_task0(ptr noalias
// CHECK: %cache.val{{[.0-9]*}} = phi float
// CHECK: %hit{{[.0-9]*}} = icmp eq i64 %cache.off
// CHECK: br i1 %hit{{[.0-9]*}}, label %cache.done{{[.0-9]*}}, label %cache.miss

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
        %k = arith.constant 0.95 : f32
        %b = arith.constant 0.01 : f32
        %sn = math.sin %a : f32
        %m = arith.mulf %sn, %k : f32
        %s = arith.addf %m, %b : f32
        qd.local_store %s, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %r, @y[] : f32
    }
  }
}
