// select, minimumf and maximumf inside a dynamic loop: p = 1.7 v - 0.2 clamped to [-1, 1], then
// v <- (v > 0 ? tanh(clamp) : 0.5 clamp) + 0.3 v + 0.1. A clamped step passes no gradient through
// p; the select takes the branch of the forward pass. Threads mix clamped and unclamped steps of
// either sign.
// Inputs: at every step, p stays at least 0.05 away from -1 and 1, and v at least 0.05 away from
// 0 (a float64 replay), far beyond what the step h = 1e-5 moves them (|dv/dx| < 2) or f32
// rounding does: no tie of min/max and no select flips under the finite differences.
// GRAD-KERNEL: compute
// GRAD-COVERS: select, min-max, branch-in-loop, field-trip
// GRAD-SET: n=8
// GRAD-SET: x=-2.0,-0.5,-0.25,-0.15,0.2,0.35,0.8,1.2
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; no clamp or select flips under the step (margin 0.05 >> 2e-5), smooth in between: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<8xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %t = %c0 to %n : i32 {
        %o = qd.local_load %v : !qd.ptr<f32>
        %g = arith.constant 1.7 : f32
        %b = arith.constant 0.2 : f32
        %m = arith.mulf %o, %g : f32
        %p = arith.subf %m, %b : f32
        %lo = arith.constant -1.0 : f32
        %hi = arith.constant 1.0 : f32
        %c1 = arith.maximumf %p, %lo : f32
        %cl = arith.minimumf %c1, %hi : f32
        %z = arith.constant 0.0 : f32
        %pos = arith.cmpf ogt, %o, %z : f32
        %th = math.tanh %cl : f32
        %h = arith.constant 0.5 : f32
        %hc = arith.mulf %cl, %h : f32
        %sel = arith.select %pos, %th, %hc : f32
        %k = arith.constant 0.3 : f32
        %ko = arith.mulf %o, %k : f32
        %e = arith.constant 0.1 : f32
        %r0 = arith.addf %sel, %ko : f32
        %r = arith.addf %r0, %e : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
