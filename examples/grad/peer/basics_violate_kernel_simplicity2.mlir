// Port of test_ad_basics.py::test_violate_kernel_simplicity2: for i in x: for j in
// static(range(3)): y[i] += x[i]; then y[i] += 42 x[i]. Atomic adds only. x.grad = 45.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: func
// GRAD-COVERS: atomic-scatter
// GRAD-SET: x=0.1
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<1xf32> {needs_grad}
  qd.field @y : !qd.field<1xf32> {needs_grad}

  qd.kernel @func() {
    qd.struct_for (%i) in @x {
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      qd.range_for %j = %c0 to %c3 : i32 {
        %w = qd.load @x[%i] : f32
        qd.atomic_add %w, @y[%i] : f32
      }
      %v = qd.load @x[%i] : f32
      %k42 = arith.constant 42.0 : f32
      %a = arith.mulf %v, %k42 : f32
      qd.atomic_add %a, @y[%i] : f32
    }
  }
}
