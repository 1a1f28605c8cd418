// trunc, round and roundeven have a zero derivative; isnan, isfinite and absi have none and only
// pick select arms: y[i] = x trunc(3 x) + x^2 round(2 x) + sin(x) roundeven(5 x) +
// (isnan(x) ? 0 : x) + (isfinite(x^2) ? exp(x) : 0) + (|i - 3| > 1 ? x^3 : 2 x), the last select
// taking either arm across threads (absi of the thread index minus 3).
// Inputs: 3 x keeps at least 0.11 from an integer (trunc's jumps), 2 x at least 0.08 from
// n + 1/2 (round's), 5 x at least 0.05 from n + 1/2 (roundeven's), by a float64 check of the
// values; the step moves them by 5e-5 at most, so no rounding flips.
// GRAD-KERNEL: compute
// GRAD-COVERS: math-ops, select
// GRAD-SET: x=-1.13,-0.71,-0.37,-0.12,0.09,0.44,0.83,1.21
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; no rounding jump or select flips under the step (margins >= 0.05 >> 5e-5), smooth in between: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<8xf32> {needs_grad}
  qd.field @y : !qd.field<8xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x = qd.load @x[%i] : f32
      %k3 = arith.constant 3.0 : f32
      %k2 = arith.constant 2.0 : f32
      %k5 = arith.constant 5.0 : f32
      %zero = arith.constant 0.0 : f32
      %x3 = arith.mulf %x, %k3 : f32
      %t = math.trunc %x3 : f32
      %a = arith.mulf %x, %t : f32
      %x2k = arith.mulf %x, %k2 : f32
      %r = math.round %x2k : f32
      %sq = arith.mulf %x, %x : f32
      %b = arith.mulf %sq, %r : f32
      %x5 = arith.mulf %x, %k5 : f32
      %re = math.roundeven %x5 : f32
      %s = math.sin %x : f32
      %c = arith.mulf %s, %re : f32
      %nan = math.isnan %x : f32
      %d = arith.select %nan, %zero, %x : f32
      %fin = math.isfinite %sq : f32
      %ex = math.exp %x : f32
      %e = arith.select %fin, %ex, %zero : f32
      %c3 = arith.constant 3 : i32
      %c1 = arith.constant 1 : i32
      %off = arith.subi %i, %c3 : i32
      %dist = math.absi %off : i32
      %far = arith.cmpi sgt, %dist, %c1 : i32
      %cube = arith.mulf %sq, %x : f32
      %twox = arith.mulf %x, %k2 : f32
      %f = arith.select %far, %cube, %twox : f32
      %r1 = arith.addf %a, %b : f32
      %r2 = arith.addf %r1, %c : f32
      %r3 = arith.addf %r2, %d : f32
      %r4 = arith.addf %r3, %e : f32
      %r5 = arith.addf %r4, %f : f32
      qd.store %r5, @y[%i] : f32
    }
  }
}
