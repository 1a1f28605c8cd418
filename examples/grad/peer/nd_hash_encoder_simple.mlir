// Port of test_ad_ndarray.py::test_hash_encoder_simple: for level in range(1): f = [0.0] (a
// local vector of one); f[0] = f[0] + table[0]; if level < 0: print (a dead branch, kept
// empty: qd has no print); f[0] = f[0] + table[0]; out[0, 0] = f[0]. With out.grad = 2.8942e-6
// the peer expects table.grad = 2 out.grad (it runs .grad without the forward; here the forward
// runs first).
// No branch on data: the if depends on the loop index only.
// GRAD-KERNEL: hash_encoder_kernel
// GRAD-COVERS: local-array, ndarray-store-output
// GRAD-ARG: table=0.2924:1
// GRAD-ARG: output_embedding=0.7515:1x1
// GRAD-SEED: output_embedding=2.8942e-06
// GRAD-WRT: table
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.kernel @hash_encoder_kernel(%table: !qd.ndarray<?xf32>, %output_embedding: !qd.ndarray<?x?xf32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    qd.range_for %level = %c0 to %c1 : i32 {
      %f = qd.alloca : !qd.ptr<!qd.array<1xf32>>
      %e = qd.elem_ptr %f[%c0] : !qd.ptr<!qd.array<1xf32>>
      %z = arith.constant 0.0 : f32
      qd.local_store %z, %e : !qd.ptr<f32>
      %a = qd.local_load %e : !qd.ptr<f32>
      %t = qd.ndarray_load %table[%c0] : !qd.ndarray<?xf32>
      %s = arith.addf %a, %t : f32
      qd.local_store %s, %e : !qd.ptr<f32>
      %neg = arith.cmpi slt, %level, %c0 : i32
      qd.if %neg {
      }
      %b = qd.local_load %e : !qd.ptr<f32>
      %t2 = qd.ndarray_load %table[%c0] : !qd.ndarray<?xf32>
      %s2 = arith.addf %b, %t2 : f32
      qd.local_store %s2, %e : !qd.ptr<f32>
      %r = qd.local_load %e : !qd.ptr<f32>
      qd.ndarray_store %r, %output_embedding[%c0, %c0] : !qd.ndarray<?x?xf32>
    }
  }
}
