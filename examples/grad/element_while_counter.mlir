// [element-ad] A while loop whose step counter lives in a local struct, with a non-linear
// update in its body: {v: f32, k: i32}; while v < 2.5 and k < 8: v <- v + 0.4 sin(v) + 0.3;
// k += 1. Then y += v^2. The element mode saves each overwritten v (a push inside the while), so
// the stack's size needs the while's trip count, bounded through the counter member (an
// ad.load_element / ad.store_element pair): at most 8.
// Branch margins (a float64 replay of the kernel for x = linspace(-0.5, 1.5, 5)): every value v
// takes (the inputs included) stays at least 0.03 from the exit threshold 2.5 (x = -0.5 runs into
// the k < 8 cap; the others exit after 5, 4, 3, 2 steps), while the step moves v by at most
// h * dv/dx <= 1e-5 * 1.4^8 ~ 1.5e-4 and f32 rounding by ~1e-6: every run takes the same path.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-struct, while-exit, mixed-f32-i32
// GRAD-SET: x=linspace(-0.5,1.5)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin) O(1) values away from the exit threshold: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %st = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
      %pv = qd.member_ptr %st[0] : !qd.ptr<!qd.struct<f32, i32>>
      %pc = qd.member_ptr %st[1] : !qd.ptr<!qd.struct<f32, i32>>
      %x_i = qd.load @x[%i] : f32
      qd.local_store %x_i, %pv : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      qd.local_store %c0, %pc : !qd.ptr<i32>
      qd.while {
        %v = qd.local_load %pv : !qd.ptr<f32>
        %k = qd.local_load %pc : !qd.ptr<i32>
        %lim = arith.constant 2.5 : f32
        %small = arith.cmpf olt, %v, %lim : f32
        %c8 = arith.constant 8 : i32
        %few = arith.cmpi slt, %k, %c8 : i32
        %go = arith.andi %small, %few : i1
        qd.condition %go
      } do {
        %v = qd.local_load %pv : !qd.ptr<f32>
        %s = math.sin %v : f32
        %a = arith.constant 0.4 : f32
        %b = arith.constant 0.3 : f32
        %m = arith.mulf %s, %a : f32
        %vm = arith.addf %v, %m : f32
        %n = arith.addf %vm, %b : f32
        qd.local_store %n, %pv : !qd.ptr<f32>
        %k = qd.local_load %pc : !qd.ptr<i32>
        %c1 = arith.constant 1 : i32
        %k1 = arith.addi %k, %c1 : i32
        qd.local_store %k1, %pc : !qd.ptr<i32>
      }
      %fin = qd.local_load %pv : !qd.ptr<f32>
      %f2 = arith.mulf %fin, %fin : f32
      qd.atomic_add %f2, @y[] : f32
    }
  }
}
