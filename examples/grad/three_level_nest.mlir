// Three nested dynamic loops: for a in range(n) (a field), for b in range(a + 1) (the enclosing
// index), for c in range(shape(w, 0)): v <- v + 0.2 w[c] sin(v); then v <- 0.95 v after each
// middle step. (n (n + 1) / 2) * len(w) = 18 inner steps per thread.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: nested-loops, triangular, shape-trip, ndarray-gradient
// GRAD-SET: n=3
// GRAD-SET: x=linspace(0.3,2.4)
// GRAD-ARG: w=0.8,-0.5,1.2
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: w
// GRAD-TOL: default ; smooth (sin) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%w: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %len = qd.ndarray_shape %w, 0 : !qd.ndarray<?xf32>
      qd.range_for %a = %c0 to %n : i32 {
        %a1 = arith.addi %a, %c1 : i32
        qd.range_for %b = %c0 to %a1 : i32 {
          qd.range_for %c = %c0 to %len : i32 {
            %wc = qd.ndarray_load %w[%c] : !qd.ndarray<?xf32>
            %o = qd.local_load %v : !qd.ptr<f32>
            %sn = math.sin %o : f32
            %k = arith.constant 0.2 : f32
            %m = arith.mulf %wc, %sn : f32
            %q = arith.mulf %m, %k : f32
            %r = arith.addf %o, %q : f32
            qd.local_store %r, %v : !qd.ptr<f32>
          }
          %o = qd.local_load %v : !qd.ptr<f32>
          %d = arith.constant 0.95 : f32
          %r = arith.mulf %o, %d : f32
          qd.local_store %r, %v : !qd.ptr<f32>
        }
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
