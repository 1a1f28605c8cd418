// A local array addressed by data: 4 elements start at x[i] (k + 1) / 4; then for each t in
// range(shape(idx, 0)), the element idx[t] (an i32 ndarray) is read and overwritten by
// a <- 0.5 a^2 + sin(a). Some elements are updated several times, one never; the result
// arr[0] arr[1] + arr[2] - arr[3] is stored to y[i].
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-array, shape-trip
// GRAD-SET: x=linspace(-0.9,0.8)
// GRAD-ARG: idx=2,0,2,1,0,2
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin, squares) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @x : !qd.field<6xf32> {needs_grad}
  qd.field @y : !qd.field<6xf32> {needs_grad}

  qd.kernel @compute(%idx: !qd.ndarray<?xi32>) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %arr = qd.alloca : !qd.ptr<!qd.array<4xf32>>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c4 = arith.constant 4 : i32
      qd.range_for %k = %c0 to %c4 : i32 {
        %k1 = arith.addi %k, %c1 : i32
        %kf = arith.sitofp %k1 : i32 to f32
        %q = arith.constant 0.25 : f32
        %s = arith.mulf %kf, %q : f32
        %e = arith.mulf %x_i, %s : f32
        %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<4xf32>>
        qd.local_store %e, %p : !qd.ptr<f32>
      }
      %len = qd.ndarray_shape %idx, 0 : !qd.ndarray<?xi32>
      qd.range_for %t = %c0 to %len : i32 {
        %j = qd.ndarray_load %idx[%t] : !qd.ndarray<?xi32>
        %p = qd.elem_ptr %arr[%j] : !qd.ptr<!qd.array<4xf32>>
        %a = qd.local_load %p : !qd.ptr<f32>
        %a2 = arith.mulf %a, %a : f32
        %h = arith.constant 0.5 : f32
        %m = arith.mulf %a2, %h : f32
        %sn = math.sin %a : f32
        %r = arith.addf %m, %sn : f32
        qd.local_store %r, %p : !qd.ptr<f32>
      }
      %p0 = qd.elem_ptr %arr[%c0] : !qd.ptr<!qd.array<4xf32>>
      %p1 = qd.elem_ptr %arr[%c1] : !qd.ptr<!qd.array<4xf32>>
      %p2 = qd.elem_ptr %arr[%c2] : !qd.ptr<!qd.array<4xf32>>
      %p3 = qd.elem_ptr %arr[%c3] : !qd.ptr<!qd.array<4xf32>>
      %a0 = qd.local_load %p0 : !qd.ptr<f32>
      %a1 = qd.local_load %p1 : !qd.ptr<f32>
      %a2 = qd.local_load %p2 : !qd.ptr<f32>
      %a3 = qd.local_load %p3 : !qd.ptr<f32>
      %m = arith.mulf %a0, %a1 : f32
      %s = arith.addf %m, %a2 : f32
      %r = arith.subf %s, %a3 : f32
      qd.store %r, @y[%i] : f32
    }
  }
}
