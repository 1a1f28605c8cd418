// Reads of an input field at data-dependent indices inside a loop: thread i runs
// v <- 0.3 (atan2(v, x[k]) x[k]^v + log(x[k])) with k = idx[t] (an i32 ndarray), so x gets
// gradient from every thread at the elements idx names (four of the five elements, two of them twice), through powf,
// atan2 and log. x stays positive (powf and log are smooth there).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: field-gather, math-ops, shape-trip
// GRAD-SET: x=0.3,0.7,1.1,1.4,0.9
// GRAD-SET: z=0.2,-0.5
// GRAD-ARG: idx=4,0,2,2,1,3,0
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: z
// GRAD-TOL: default ; smooth (powf of a positive base, atan2 away from the origin, log of x >= 0.3) O(1) values: truncation ~1e-10, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @z : !qd.field<2xf32> {needs_grad}
  qd.field @y : !qd.field<2xf32> {needs_grad}
  qd.kernel @compute(%idx: !qd.ndarray<?xi32>) {
    qd.struct_for (%i) in @z {
      %v = qd.alloca : !qd.ptr<f32>
      %z_i = qd.load @z[%i] : f32
      qd.local_store %z_i, %v : !qd.ptr<f32>
      %len = qd.ndarray_shape %idx, 0 : !qd.ndarray<?xi32>
      %c0 = arith.constant 0 : i32
      qd.range_for %t = %c0 to %len : i32 {
        %k = qd.ndarray_load %idx[%t] : !qd.ndarray<?xi32>
        %xk = qd.load @x[%k] : f32
        %o = qd.local_load %v : !qd.ptr<f32>
        %p = math.powf %xk, %o : f32
        %at = math.atan2 %o, %xk : f32
        %q = arith.mulf %at, %p : f32
        %l = math.log %xk : f32
        %r = arith.addf %q, %l : f32
        %h = arith.constant 0.3 : f32
        %rr = arith.mulf %r, %h : f32
        qd.local_store %rr, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.store %f, @y[%i] : f32
    }
  }
}
