// ndarray form (gen_ndarray.py) of for_integer_stack.mlir, for test_ad_ndarray.py::test_integer_stack.
// Port of test_ad_for.py::test_integer_stack: weight = 1 (i32); s = 0; for j in range(c[i]):
// s += weight a[i] + b[i]; weight *= 10; f[i] = s.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: int_stack
// GRAD-COVERS: field-trip, mixed-f32-i32, accumulator
// GRAD-ARG: a=fill(1):5
// GRAD-ARG: b=fill(1):5
// GRAD-ARG: c=arange():5
// GRAD-ARG: f=fill(0):5
// GRAD-SEED: f=1
// GRAD-WRT: a
// GRAD-WRT: b
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 1
module {

  qd.kernel @int_stack(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>, %c: !qd.ndarray<?xi32>, %f: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %c0 = arith.constant 0 : i32
    %cn = arith.constant 5 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %wp = qd.alloca : !qd.ptr<i32>
      %sp = qd.alloca : !qd.ptr<f32>
      %c1 = arith.constant 1 : i32
      %z = arith.constant 0.0 : f32
      qd.local_store %c1, %wp : !qd.ptr<i32>
      qd.local_store %z, %sp : !qd.ptr<f32>
      %n = qd.ndarray_load %c[%i] : !qd.ndarray<?xi32>
      qd.range_for %j = %c0 to %n : i32 {
        %w = qd.local_load %wp : !qd.ptr<i32>
        %wf = arith.sitofp %w : i32 to f32
        %ai = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
        %bi = qd.ndarray_load %b[%i] : !qd.ndarray<?xf32>
        %t = arith.mulf %wf, %ai : f32
        %u = arith.addf %t, %bi : f32
        %s = qd.local_load %sp : !qd.ptr<f32>
        %s2 = arith.addf %s, %u : f32
        qd.local_store %s2, %sp : !qd.ptr<f32>
        %c10 = arith.constant 10 : i32
        %w2 = arith.muli %w, %c10 : i32
        qd.local_store %w2, %wp : !qd.ptr<i32>
      }
      %r = qd.local_load %sp : !qd.ptr<f32>
      qd.ndarray_store %r, %f[%i] : !qd.ndarray<?xf32>
    }
  }
}
