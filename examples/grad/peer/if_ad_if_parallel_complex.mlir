// Port of test_ad_if.py::test_ad_if_parallel_complex and ::..._f64 (the corpus's f64 twin):
// for i in range(2): t = 0; if x[i] > 0: t = 1 / x[i]; y[i] = t. Inputs -0.5 and 2 stay 0.5
// from the threshold (the peer's x[0] = 0 sits on it). x.grad = 0, -1/4.
// GRAD-KERNEL: func
// GRAD-COVERS: if-else, branch-local
// GRAD-SET: x=-0.5,2
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (1/x, x >= 2 where taken): truncation ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<2xf32> {needs_grad}
  qd.field @y : !qd.field<2xf32> {needs_grad}

  qd.kernel @func() {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    qd.range_for %i = %c0 to %c2 : i32 {
      %t = qd.alloca : !qd.ptr<f32>
      %z = arith.constant 0.0 : f32
      qd.local_store %z, %t : !qd.ptr<f32>
      %v = qd.load @x[%i] : f32
      %c = arith.cmpf ogt, %v, %z : f32
      qd.if %c {
        %one = arith.constant 1.0 : f32
        %r = arith.divf %one, %v : f32
        qd.local_store %r, %t : !qd.ptr<f32>
      }
      %f = qd.local_load %t : !qd.ptr<f32>
      qd.store %f, @y[%i] : f32
    }
  }
}
