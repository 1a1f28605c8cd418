// A counted while with a continue after its counter's step: while k < n: k += 1; if k % 3 == 0:
// continue; v <- tanh(0.9 v + 0.3 x). The continue comes after the step, so the trip count is
// still at most n: the stack of v is bounded by n + 2 = 11 (6 of the 9 passes step, so its peak
// is 8: a continue makes the bound count passes it skips).
// No branch on a float: the continue depends on the counter only.
// GRAD-KERNEL: compute
// GRAD-COVERS: while-exit, continue, field-trip
// GRAD-SET: n=9
// GRAD-SET: x=linspace(-0.8,1.2)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (tanh) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 2
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %k = qd.alloca : !qd.ptr<i32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      qd.local_store %c0, %k : !qd.ptr<i32>
      %n = qd.load @n[] : i32
      qd.while {
        %kv = qd.local_load %k : !qd.ptr<i32>
        %go = arith.cmpi slt, %kv, %n : i32
        qd.condition %go
      } do {
        %kv = qd.local_load %k : !qd.ptr<i32>
        %k1 = arith.addi %kv, %c1 : i32
        qd.local_store %k1, %k : !qd.ptr<i32>
        %r = arith.remsi %k1, %c3 : i32
        %skip = arith.cmpi eq, %r, %c0 : i32
        qd.if %skip {
          qd.continue
        }
        %o = qd.local_load %v : !qd.ptr<f32>
        %a = arith.constant 0.9 : f32
        %p = arith.mulf %o, %a : f32
        %w = arith.constant 0.3 : f32
        %b = arith.mulf %x_i, %w : f32
        %s = arith.addf %p, %b : f32
        %t = math.tanh %s : f32
        qd.local_store %t, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
