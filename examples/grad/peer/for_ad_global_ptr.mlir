// Port of test_ad_for.py::test_ad_global_ptr: task 1: for i in range(N): p = 0;
// for j in range(N): b[i] += a[p]**2; p += 1; task 2: for i in range(N): f[None] += b[i].
// a.grad[i] = 2 a[i] N.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: task
// GRAD-COVERS: multi-task, mixed-f32-i32
// GRAD-SET: a=arange()
// GRAD-SET: b=0.5,-0.25,0.75,0.1,-0.4
// GRAD-SEED: f=1
// GRAD-WRT: a
// GRAD-WRT: b
// GRAD-TOL: default ; polynomial: truncation ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @a : !qd.field<5xf32> {needs_grad}
  qd.field @b : !qd.field<5xf32> {needs_grad}
  qd.field @f : !qd.field<f32> {needs_grad}

  qd.kernel @task() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cn = arith.constant 5 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %pp = qd.alloca : !qd.ptr<i32>
      qd.local_store %c0, %pp : !qd.ptr<i32>
      qd.range_for %j = %c0 to %cn : i32 {
        %p = qd.local_load %pp : !qd.ptr<i32>
        %v = qd.load @a[%p] : f32
        %two = arith.constant 2 : i32
        %sq = math.fpowi %v, %two : f32, i32
        qd.atomic_add %sq, @b[%i] : f32
        %pn = arith.addi %p, %c1 : i32
        qd.local_store %pn, %pp : !qd.ptr<i32>
      }
    }
    qd.range_for %i = %c0 to %cn : i32 {
      %v = qd.load @b[%i] : f32
      qd.atomic_add %v, @f[] : f32
    }
  }
}
