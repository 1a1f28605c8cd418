// A local struct holding a local array and a float: {arr: [3 x f32], acc: f32}. For n steps,
// acc <- sin(arr[t mod 3] acc) + 0.5 and arr[t mod 3] <- cos(arr[t mod 3]); y += acc. The array
// member is addressed through member_ptr then elem_ptr, both members are loop-carried, and the
// product reads both.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-struct, local-array, field-trip
// GRAD-SET: n=5
// GRAD-SET: x=0.15,0.45,0.8,1.3
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin, cos) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 2
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %st = qd.alloca : !qd.ptr<!qd.struct<!qd.array<3xf32>, f32>>
      %arr = qd.member_ptr %st[0] : !qd.ptr<!qd.struct<!qd.array<3xf32>, f32>>
      %acc = qd.member_ptr %st[1] : !qd.ptr<!qd.struct<!qd.array<3xf32>, f32>>
      %x_i = qd.load @x[%i] : f32
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      qd.range_for %k = %c0 to %c3 : i32 {
        %kf = arith.sitofp %k : i32 to f32
        %e = arith.addf %x_i, %kf : f32
        %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<3xf32>>
        qd.local_store %e, %p : !qd.ptr<f32>
      }
      %n = qd.load @n[] : i32
      qd.range_for %t = %c0 to %n : i32 {
        %k = arith.remsi %t, %c3 : i32
        %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<3xf32>>
        %a = qd.local_load %p : !qd.ptr<f32>
        %o = qd.local_load %acc : !qd.ptr<f32>
        %m = arith.mulf %a, %o : f32
        %s = math.sin %m : f32
        %h = arith.constant 0.5 : f32
        %r = arith.addf %s, %h : f32
        qd.local_store %r, %acc : !qd.ptr<f32>
        %c = math.cos %a : f32
        qd.local_store %c, %p : !qd.ptr<f32>
      }
      %f = qd.local_load %acc : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
