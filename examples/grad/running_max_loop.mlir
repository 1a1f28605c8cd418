// maxnumf and minnumf in a dynamic loop, so that their operands are kept for the reverse pass:
// thread i starts from v = x[i] and, for t < n, reads e = w[minui(t + i, 7)], then
//   a = maxnumf(v, 0.6 e), b = minnumf(a / 2, e + 0.3), v <- 0.9 a + 0.2 b;  y[i] = v.
// The adjoint of each step goes to the operand chosen, through every step back to x and w.
// Inputs: a float64 replay keeps every compared pair (v, 0.6 e) and (a / 2, e + 0.3) at least
// 0.26 apart, far beyond what the step h = 1e-5 moves them (|dv/dx| < 1) or f32 rounding does;
// each comparison goes both ways, and some x and some w get gradient: no choice flips under the
// finite differences.
// GRAD-KERNEL: compute
// GRAD-COVERS: min-max, arith-ops, field-trip
// GRAD-SET: n=4
// GRAD-SET: x=1.15,0.26,1.11,1.15,-1.0,0.98
// GRAD-SET: w=1.0,1.47,0.78,-0.32,-0.88,0.46,-0.87,0.77
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: w
// GRAD-TOL: default ; piecewise linear in x and w, no choice within 0.26 of a step: truncation 0, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<6xf32> {needs_grad}
  qd.field @w : !qd.field<8xf32> {needs_grad}
  qd.field @y : !qd.field<6xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      %c7 = arith.constant 7 : i32
      qd.range_for %t = %c0 to %n : i32 {
        %ti = arith.addi %t, %i : i32
        %j = arith.minui %ti, %c7 : i32
        %e = qd.load @w[%j] : f32
        %o = qd.local_load %v : !qd.ptr<f32>
        %k6 = arith.constant 0.6 : f32
        %f = arith.mulf %e, %k6 : f32
        %a = arith.maxnumf %o, %f : f32
        %k5 = arith.constant 0.5 : f32
        %p = arith.mulf %a, %k5 : f32
        %k3 = arith.constant 0.3 : f32
        %q = arith.addf %e, %k3 : f32
        %b = arith.minnumf %p, %q : f32
        %k9 = arith.constant 0.9 : f32
        %k2 = arith.constant 0.2 : f32
        %a9 = arith.mulf %a, %k9 : f32
        %b2 = arith.mulf %b, %k2 : f32
        %r = arith.addf %a9, %b2 : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %fin = qd.local_load %v : !qd.ptr<f32>
      qd.store %fin, @y[%i] : f32
    }
  }
}
