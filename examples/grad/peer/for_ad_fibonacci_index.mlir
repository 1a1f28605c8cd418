// Port of test_ad_for.py::test_ad_fibonacci_index: task 1: for i in range(N): p = 0; q = 1;
// for j in range(5): p, q = q, p + q; b[q] += a[q] (data-dependent index from i32 locals);
// task 2: for i in range(M): f[None] += b[i]. b is written by task 1 and read by task 2.
// a.grad[i] = N for i in {1, 2, 3, 5, 8}.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: fib
// GRAD-COVERS: multi-task, atomic-scatter, mixed-f32-i32
// GRAD-SET: a=fill(1)
// GRAD-SET: b=fill(0)
// GRAD-SEED: f=1
// GRAD-WRT: a
// GRAD-WRT: b
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 2
module {
  qd.field @a : !qd.field<10xf32> {needs_grad}
  qd.field @b : !qd.field<10xf32> {needs_grad}
  qd.field @f : !qd.field<f32> {needs_grad}

  qd.kernel @fib() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c5 = arith.constant 5 : i32
    %cm = arith.constant 10 : i32
    qd.range_for %i = %c0 to %c5 : i32 {
      %pp = qd.alloca : !qd.ptr<i32>
      %qp = qd.alloca : !qd.ptr<i32>
      qd.local_store %c0, %pp : !qd.ptr<i32>
      qd.local_store %c1, %qp : !qd.ptr<i32>
      qd.range_for %j = %c0 to %c5 : i32 {
        %p = qd.local_load %pp : !qd.ptr<i32>
        %q = qd.local_load %qp : !qd.ptr<i32>
        %s = arith.addi %p, %q : i32
        qd.local_store %q, %pp : !qd.ptr<i32>
        qd.local_store %s, %qp : !qd.ptr<i32>
        %v = qd.load @a[%s] : f32
        qd.atomic_add %v, @b[%s] : f32
      }
    }
    qd.range_for %i = %c0 to %cm : i32 {
      %v = qd.load @b[%i] : f32
      qd.atomic_add %v, @f[] : f32
    }
  }
}
