// A nonlinear in-place recurrence through a field: x[k, i+1] = sin(x[k, i]) + 0.5 x[k, i] in
// a serial loop over i inside the parallel loop over k. The derivative rule of sin needs the
// value read; it is never overwritten after the read (each element is written once, before
// it is read), so the reverse pass re-reads it from memory. Seeded with per-column weights
// through a second output y[k] = x[k, 5]^2. Item 4 of issue #14.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: in-place, math-ops
// GRAD-SET: x=linspace(-1.3,1.1)
// GRAD-SEED: x=1
// GRAD-SEED: y=0.5
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin, powers) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<3x6xf32> {needs_grad}
  qd.field @y : !qd.field<3xf32> {needs_grad}

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %c5 = arith.constant 5 : i32
    qd.range_for %k = %c0 to %c3 : i32 {
      qd.range_for %i = %c0 to %c5 : i32 {
        %v = qd.load @x[%k, %i] : f32
        %s = math.sin %v : f32
        %h = arith.constant 0.5 : f32
        %hv = arith.mulf %h, %v : f32
        %w = arith.addf %s, %hv : f32
        %n = arith.addi %i, %c1 : i32
        qd.store %w, @x[%k, %n] : f32
      }
      %last = qd.load @x[%k, %c5] : f32
      %sq = arith.mulf %last, %last : f32
      qd.store %sq, @y[%k] : f32
    }
  }
}
