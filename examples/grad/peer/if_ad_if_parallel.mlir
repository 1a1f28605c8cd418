// Port of test_ad_if.py::test_ad_if_parallel and ::test_ad_if_parallel_f64 (the f64 form is the
// corpus's f64 twin): for i in range(2): t = x[i]; if t > 0: y[i] = t else: y[i] = 2 t.
// Inputs -0.5 and 1 stay 0.5 from the threshold 0. x.grad = 2, 1.
// GRAD-KERNEL: func
// GRAD-COVERS: if-else, store-in-both-arms
// GRAD-SET: x=-0.5,1
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear, branches 0.5 away from the inputs: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<2xf32> {needs_grad}
  qd.field @y : !qd.field<2xf32> {needs_grad}

  qd.kernel @func() {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    qd.range_for %i = %c0 to %c2 : i32 {
      %t = qd.alloca : !qd.ptr<f32>
      %xv = qd.load @x[%i] : f32
      qd.local_store %xv, %t : !qd.ptr<f32>
      %v = qd.local_load %t : !qd.ptr<f32>
      %z = arith.constant 0.0 : f32
      %c = arith.cmpf ogt, %v, %z : f32
      qd.if %c {
        qd.store %v, @y[%i] : f32
      } else {
        %k = arith.constant 2.0 : f32
        %w = arith.mulf %v, %k : f32
        qd.store %w, @y[%i] : f32
      }
    }
  }
}
