// A store to the same element in both arms of one qd.if: y[i] = x[i]^2 when x[i] > 0.6, else
// y[i] = 3 x[i]. Only one arm runs, so each element is written once; the reverse of each arm
// reads and zeroes y's adjoint under the same condition. The inputs 0.1, 0.3, ..., 1.1 stay at
// least 0.1 away from the threshold 0.6 (a float64 replay of the condition), far beyond what a
// finite-difference step (1e-5) or f32 rounding moves them, and take both arms.
// GRAD-KERNEL: compute
// GRAD-COVERS: if-else
// GRAD-SET: x=linspace(0.1,1.1)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; polynomial O(1) values and no branch within 0.1 of a step: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<6xf32> {needs_grad}
  qd.field @y : !qd.field<6xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %a = qd.load @x[%i] : f32
      %t = arith.constant 0.6 : f32
      %c = arith.cmpf ogt, %a, %t : f32
      qd.if %c {
        %sq = arith.mulf %a, %a : f32
        qd.store %sq, @y[%i] : f32
      } else {
        %k = arith.constant 3.0 : f32
        %lin = arith.mulf %k, %a : f32
        qd.store %lin, @y[%i] : f32
      }
    }
  }
}
