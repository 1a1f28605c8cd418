// Port of test_ad_for.py::test_multiple_ib_deeper_non_scalar: for j in range(N) (parallel):
// for i in range(j): y[j] += x[j]; for i in range(3): for ii in range(j): y[j] += x[j];
// for i in range(3): for ii in range(2): for iii in range(j): y[j] += x[j]. x.grad[j] = 10 j.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute_y
// GRAD-COVERS: nested-loops, sibling-loops, triangular
// GRAD-SET: x=linspace(0.5,1.5)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<10xf32> {needs_grad}
  qd.field @y : !qd.field<10xf32> {needs_grad}

  qd.kernel @compute_y() {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %cn = arith.constant 10 : i32
    qd.range_for %j = %c0 to %cn : i32 {
      qd.range_for %i = %c0 to %j : i32 {
        %v = qd.load @x[%j] : f32
        qd.atomic_add %v, @y[%j] : f32
      }
      qd.range_for %i = %c0 to %c3 : i32 {
        qd.range_for %ii = %c0 to %j : i32 {
          %v = qd.load @x[%j] : f32
          qd.atomic_add %v, @y[%j] : f32
        }
      }
      qd.range_for %i = %c0 to %c3 : i32 {
        qd.range_for %ii = %c0 to %c2 : i32 {
          qd.range_for %iii = %c0 to %j : i32 {
            %v = qd.load @x[%j] : f32
            qd.atomic_add %v, @y[%j] : f32
          }
        }
      }
    }
  }
}
