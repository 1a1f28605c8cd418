// A rank-2 struct_for whose inner trip count is the second extent of a 2-D ndarray: for each
// element (i, j) of x (3 x 4), v <- tanh(v m[j, k] + 0.1) for k in range(shape(m, 1)) (m is 4 x 5
// and active), then y[i, j] := v. Every m[j, k] gets gradient from the three rows of x.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: shape-trip, rank-2, ndarray-gradient
// GRAD-SET: x=linspace(-1.1,1.1)
// GRAD-ARG: m=linspace(-1.2,1.5):4x5
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: m
// GRAD-TOL: default ; smooth (tanh) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @x : !qd.field<3x4xf32> {needs_grad}
  qd.field @y : !qd.field<3x4xf32> {needs_grad}

  qd.kernel @compute(%m: !qd.ndarray<?x?xf32>) {
    qd.struct_for (%i, %j) in @x {
      %x_ij = qd.load @x[%i, %j] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_ij, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      %len = qd.ndarray_shape %m, 1 : !qd.ndarray<?x?xf32>
      qd.range_for %k = %c0 to %len : i32 {
        %mk = qd.ndarray_load %m[%j, %k] : !qd.ndarray<?x?xf32>
        %o = qd.local_load %v : !qd.ptr<f32>
        %p = arith.mulf %o, %mk : f32
        %b = arith.constant 0.1 : f32
        %s = arith.addf %p, %b : f32
        %t = math.tanh %s : f32
        qd.local_store %t, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.store %f, @y[%i, %j] : f32
    }
  }
}
