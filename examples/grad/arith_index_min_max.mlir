// Index arithmetic with the rounding divisions, unsigned min/max and index_castui picks which
// elements of x feed maxnumf and minnumf. Thread i (0..7), s = i - 3:
//   a = x[floordivsi(s, 2) + 2]                     (0,0,1,1,2,2,3,3)
//   b = x[ceildivsi(s, 2) + 5]                      (4,4,5,5,6,6,7,7)
//   c = x[maxui(ceildivui(i, 3), 1) + 6]            (7,7,7,7,8,8,8,9)
//   d = x[11 - minui(i, 5)], through index (index_castui there and back)  (11,10,9,8,7,6,6,6)
//   m1 = maxnumf(a, b), m2 = minnumf(c, d), y[i] = m1 m2 + maxnumf(m1 / 2, m2).
// Each adjoint goes to the operand chosen; the integer ops carry none. Several threads read the
// same elements, so adjoints accumulate. Inputs: a float64 replay keeps every compared pair
// (a, b), (c, d), (m1 / 2, m2) at least 0.1 apart, far beyond what the step h = 1e-5 moves them
// (|dy/dx| < 4) or f32 rounding does, and each comparison goes both ways over the threads: no
// choice flips under the finite differences.
// GRAD-KERNEL: compute
// GRAD-COVERS: min-max, arith-ops
// GRAD-SET: x=0.9,-0.4,1.3,0.2,-0.7,0.6,1.1,-1.5,0.45,-0.1,1.7,-0.8
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; products of O(1) values and no choice within 0.1 of a step: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<12xf32> {needs_grad}
  qd.field @y : !qd.field<8xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @y {
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %c6 = arith.constant 6 : i32
      %c11 = arith.constant 11 : index
      %s = arith.subi %i, %c3 : i32
      %f = arith.floordivsi %s, %c2 : i32
      %ia = arith.addi %f, %c2 : i32
      %q = arith.ceildivsi %s, %c2 : i32
      %ib = arith.addi %q, %c5 : i32
      %u = arith.ceildivui %i, %c3 : i32
      %u1 = arith.maxui %u, %c1 : i32
      %ic = arith.addi %u1, %c6 : i32
      %lo = arith.minui %i, %c5 : i32
      %lx = arith.index_castui %lo : i32 to index
      %kx = arith.subi %c11, %lx : index
      %id = arith.index_castui %kx : index to i32
      %a = qd.load @x[%ia] : f32
      %b = qd.load @x[%ib] : f32
      %c = qd.load @x[%ic] : f32
      %d = qd.load @x[%id] : f32
      %m1 = arith.maxnumf %a, %b : f32
      %m2 = arith.minnumf %c, %d fastmath<nsz> : f32
      %p = arith.mulf %m1, %m2 : f32
      %half = arith.constant 0.5 : f32
      %t = arith.mulf %m1, %half : f32
      %m3 = arith.maxnumf %t, %m2 : f32
      %r = arith.addf %p, %m3 : f32
      qd.store %r, @y[%i] : f32
    }
  }
}
