// A trip count from an ndarray shape: Horner's rule p <- p x + c[k] for k in [1, shape(c, 0)),
// evaluating the polynomial with coefficients c (an active ndarray) at each x[i]; y[i] := p.
// p is a loop-carried recurrence whose primal the derivative of p * x needs: one stack, sized by
// c's shape at launch. With y.grad = 1: x.grad[i] = p'(x[i]), c.grad[k] = sum over i of x[i]^(5-k).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: shape-trip, ndarray-gradient
// GRAD-SET: x=linspace(-1.0,1.0)
// GRAD-ARG: c=0.5,-1.0,0.25,2.0,-0.75,1.5
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: c
// GRAD-TOL: default ; a degree-5 polynomial on [-1, 1] with O(1) coefficients: truncation h^2 |p'''| / 6 < 1e-9, and the central difference of the cubic and lower terms is exact
// GRAD-STACKS: 1
module {
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<5xf32> {needs_grad}

  qd.kernel @compute(%c: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %p = qd.alloca : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %first = qd.ndarray_load %c[%c0] : !qd.ndarray<?xf32>
      qd.local_store %first, %p : !qd.ptr<f32>
      %len = qd.ndarray_shape %c, 0 : !qd.ndarray<?xf32>
      qd.range_for %k = %c1 to %len : i32 {
        %o = qd.local_load %p : !qd.ptr<f32>
        %m = arith.mulf %o, %x_i : f32
        %ck = qd.ndarray_load %c[%k] : !qd.ndarray<?xf32>
        %s = arith.addf %m, %ck : f32
        qd.local_store %s, %p : !qd.ptr<f32>
      }
      %r = qd.local_load %p : !qd.ptr<f32>
      qd.store %r, @y[%i] : f32
    }
  }
}
