// [element-ad] Indices that depend on loaded data: an i32 local array idx (filled from the
// field perm) picks the element of a that each step updates, and is itself updated in the
// loop: for n steps, with s = t mod 4: j = idx[s]; a[j] <- 0.9 sin(a[j]) + 0.2 a[s];
// idx[s] <- (j + s + 1) mod 4. Then y += a[k]^2. The reverse pass re-reads j from idx, which
// it restores store by store (an i32 stack), and a[j] from a (an f32 stack).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-array, data-indices, mixed-f32-i32, field-trip
// GRAD-SET: n=13
// GRAD-SET: perm=2,0,3,1
// GRAD-SET: x=linspace(-0.8,1.3)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin) O(1) values: truncation ~1e-11, rounding 1e-16 |y| (~10) / h ~ 1e-10
// GRAD-STACKS: 2
module {
  qd.field @n : !qd.field<i32>
  qd.field @perm : !qd.field<4xi32>
  qd.field @x : !qd.field<2x4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c4 = arith.constant 4 : i32
    qd.range_for %r = %c0 to %c2 : i32 {
      %idx = qd.alloca : !qd.ptr<!qd.array<4xi32>>
      %a = qd.alloca : !qd.ptr<!qd.array<4xf32>>
      qd.range_for %k = %c0 to %c4 : i32 {
        %pk = qd.load @perm[%k] : i32
        %pi = qd.elem_ptr %idx[%k] : !qd.ptr<!qd.array<4xi32>>
        qd.local_store %pk, %pi : !qd.ptr<i32>
        %v = qd.load @x[%r, %k] : f32
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<4xf32>>
        qd.local_store %v, %p : !qd.ptr<f32>
      }
      %n = qd.load @n[] : i32
      qd.range_for %t = %c0 to %n : i32 {
        %s = arith.remsi %t, %c4 : i32
        %ps = qd.elem_ptr %idx[%s] : !qd.ptr<!qd.array<4xi32>>
        %j = qd.local_load %ps : !qd.ptr<i32>
        %pj = qd.elem_ptr %a[%j] : !qd.ptr<!qd.array<4xf32>>
        %pa = qd.elem_ptr %a[%s] : !qd.ptr<!qd.array<4xf32>>
        %aj = qd.local_load %pj : !qd.ptr<f32>
        %as = qd.local_load %pa : !qd.ptr<f32>
        %sn = math.sin %aj : f32
        %k9 = arith.constant 0.9 : f32
        %k2 = arith.constant 0.2 : f32
        %u = arith.mulf %sn, %k9 : f32
        %w = arith.mulf %as, %k2 : f32
        %nv = arith.addf %u, %w : f32
        qd.local_store %nv, %pj : !qd.ptr<f32>
        %js = arith.addi %j, %s : i32
        %js1 = arith.addi %js, %c1 : i32
        %nj = arith.remsi %js1, %c4 : i32
        qd.local_store %nj, %ps : !qd.ptr<i32>
      }
      qd.range_for %k = %c0 to %c4 : i32 {
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<4xf32>>
        %v = qd.local_load %p : !qd.ptr<f32>
        %v2 = arith.mulf %v, %v : f32
        qd.atomic_add %v2, @y[] : f32
      }
    }
  }
}
