// [element-ad] A read-only array: filled once from x, then only read: for n steps,
// acc <- acc + sin(a[t mod 8]) a[(t + 3) mod 8], and y[r] = acc. Nothing overwrites what the
// reverse pass reads back, so element mode saves nothing at all (no adstack; acc is a pure
// accumulator): both elements are re-read from the array in reverse.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-array, read-only-array, accumulator, field-trip
// GRAD-SET: n=21
// GRAD-SET: x=linspace(-1.3,1.1)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin) O(1) values: truncation ~1e-11, rounding 1e-16 |y| (~10) / h ~ 1e-10
// GRAD-STACKS: 0
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<3x8xf32> {needs_grad}
  qd.field @y : !qd.field<3xf32> {needs_grad}

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    %c8 = arith.constant 8 : i32
    qd.range_for %r = %c0 to %c3 : i32 {
      %a = qd.alloca : !qd.ptr<!qd.array<8xf32>>
      %acc = qd.alloca : !qd.ptr<f32>
      qd.range_for %k = %c0 to %c8 : i32 {
        %v = qd.load @x[%r, %k] : f32
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<8xf32>>
        qd.local_store %v, %p : !qd.ptr<f32>
      }
      %n = qd.load @n[] : i32
      qd.range_for %t = %c0 to %n : i32 {
        %j = arith.remsi %t, %c8 : i32
        %t3 = arith.addi %t, %c3 : i32
        %jn = arith.remsi %t3, %c8 : i32
        %p = qd.elem_ptr %a[%j] : !qd.ptr<!qd.array<8xf32>>
        %q = qd.elem_ptr %a[%jn] : !qd.ptr<!qd.array<8xf32>>
        %u = qd.local_load %p : !qd.ptr<f32>
        %w = qd.local_load %q : !qd.ptr<f32>
        %s = math.sin %u : f32
        %sw = arith.mulf %s, %w : f32
        %o = qd.local_load %acc : !qd.ptr<f32>
        %no = arith.addf %o, %sw : f32
        qd.local_store %no, %acc : !qd.ptr<f32>
      }
      %f = qd.local_load %acc : !qd.ptr<f32>
      qd.store %f, @y[%r] : f32
    }
  }
}
