// ndarray form (gen_ndarray.py) of for_double_for_loops.mlir, for test_ad_ndarray.py::test_double_for_loops.
// Port of test_ad_for.py::test_double_for_loops: weight = 1; for j in range(c[i]):
// weight *= a[i]; s = 0; for j in range(2 c[i]): s += weight + b[i]; f[i] = s.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: double_for
// GRAD-COVERS: sibling-loops, field-trip
// GRAD-ARG: a=linspace(0.9,1.3):5
// GRAD-ARG: b=fill(1):5
// GRAD-ARG: c=arange():5
// GRAD-ARG: f=fill(0):5
// GRAD-SEED: f=1
// GRAD-WRT: a
// GRAD-WRT: b
// GRAD-TOL: default ; polynomial: truncation ~1e-10
// GRAD-STACKS: 1
module {

  qd.kernel @double_for(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>, %c: !qd.ndarray<?xi32>, %f: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %c0 = arith.constant 0 : i32
    %cn = arith.constant 5 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %wp = qd.alloca : !qd.ptr<f32>
      %one = arith.constant 1.0 : f32
      qd.local_store %one, %wp : !qd.ptr<f32>
      %n = qd.ndarray_load %c[%i] : !qd.ndarray<?xi32>
      qd.range_for %j = %c0 to %n : i32 {
        %w = qd.local_load %wp : !qd.ptr<f32>
        %ai = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
        %w2 = arith.mulf %w, %ai : f32
        qd.local_store %w2, %wp : !qd.ptr<f32>
      }
      %sp = qd.alloca : !qd.ptr<f32>
      %z = arith.constant 0.0 : f32
      qd.local_store %z, %sp : !qd.ptr<f32>
      %c2 = arith.constant 2 : i32
      %n2 = arith.muli %n, %c2 : i32
      qd.range_for %j = %c0 to %n2 : i32 {
        %w = qd.local_load %wp : !qd.ptr<f32>
        %bi = qd.ndarray_load %b[%i] : !qd.ndarray<?xf32>
        %t = arith.addf %w, %bi : f32
        %s = qd.local_load %sp : !qd.ptr<f32>
        %s2 = arith.addf %s, %t : f32
        qd.local_store %s2, %sp : !qd.ptr<f32>
      }
      %r = qd.local_load %sp : !qd.ptr<f32>
      qd.ndarray_store %r, %f[%i] : !qd.ndarray<?xf32>
    }
  }
}
