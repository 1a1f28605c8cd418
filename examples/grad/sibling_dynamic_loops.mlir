// Two sibling dynamic loops in one thread: n steps (a field) of v <- 0.8 sqrt(v^2 + 0.5), then
// shape(w, 0) steps of v <- w[t] v + 0.3 sin(v). Each loop's stack entries are popped by its
// own reverse loop; v's stack is sized by the sum of the two trip counts.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: sibling-loops, field-trip, shape-trip, ndarray-gradient
// GRAD-SET: n=5
// GRAD-SET: x=linspace(-1.5,1.5)
// GRAD-ARG: w=0.9,-0.6,1.1,0.5
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: w
// GRAD-TOL: default ; smooth (sqrt of a value >= 0.5, sin) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<7xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%w: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      %n = qd.load @n[] : i32
      qd.range_for %j = %c0 to %n : i32 {
        %o = qd.local_load %v : !qd.ptr<f32>
        %sq = arith.mulf %o, %o : f32
        %half = arith.constant 0.5 : f32
        %a = arith.addf %sq, %half : f32
        %r = math.sqrt %a : f32
        %k = arith.constant 0.8 : f32
        %s = arith.mulf %r, %k : f32
        qd.local_store %s, %v : !qd.ptr<f32>
      }
      %len = qd.ndarray_shape %w, 0 : !qd.ndarray<?xf32>
      qd.range_for %t = %c0 to %len : i32 {
        %wt = qd.ndarray_load %w[%t] : !qd.ndarray<?xf32>
        %o = qd.local_load %v : !qd.ptr<f32>
        %m = arith.mulf %wt, %o : f32
        %sn = math.sin %o : f32
        %k = arith.constant 0.3 : f32
        %q = arith.mulf %sn, %k : f32
        %r = arith.addf %m, %q : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
