// Atomics into a scalar: every thread adds exp(-x^2) to y[] once, then adds sin(x (j + 1) / 2)
// to y[] at each of the n steps of a serial loop. The adjoint of y[] reaches every thread
// unchanged (an atomic add leaves it in place), so x.grad[i] is the derivative of thread i's
// own terms.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: atomic-scalar, field-trip, accumulator
// GRAD-SET: n=4
// GRAD-SET: x=linspace(-1.0,1.0)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (exp, sin) O(1) values: truncation ~1e-11, rounding 1e-16 |y| (~10) / h ~ 1e-10
// GRAD-STACKS: 0
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<9xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %sq = arith.mulf %x_i, %x_i : f32
      %nsq = arith.negf %sq : f32
      %e = math.exp %nsq : f32
      qd.atomic_add %e, @y[] : f32
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %j1 = arith.addi %j, %c1 : i32
        %jf = arith.sitofp %j1 : i32 to f32
        %h = arith.constant 0.5 : f32
        %s = arith.mulf %jf, %h : f32
        %a = arith.mulf %x_i, %s : f32
        %sn = math.sin %a : f32
        qd.atomic_add %sn, @y[] : f32
      }
    }
  }
}
