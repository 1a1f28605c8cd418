// Dynamic loops inside the branches of an if, inside a serial loop: for r in range(3), even
// rounds run n steps of v <- 0.9 v + 0.2 sin(v), odd rounds run shape(w, 0) steps of
// v <- v + 0.3 w[t] cos(v). The branch depends on r only (an integer), so no input is near a
// threshold; the reverse pass replays each round's branch and its loop's trip count.
// GRAD-KERNEL: compute
// GRAD-COVERS: loop-in-branch, nested-loops, field-trip, shape-trip, ndarray-gradient
// GRAD-SET: n=4
// GRAD-SET: x=linspace(-1.0,1.5)
// GRAD-ARG: w=0.7,-0.4,1.0
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: w
// GRAD-TOL: default ; smooth (sin, cos) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<6xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%w: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %n = qd.load @n[] : i32
      %len = qd.ndarray_shape %w, 0 : !qd.ndarray<?xf32>
      qd.range_for %r = %c0 to %c3 : i32 {
        %par = arith.remsi %r, %c2 : i32
        %even = arith.cmpi eq, %par, %c0 : i32
        qd.if %even {
          qd.range_for %j = %c0 to %n : i32 {
            %o = qd.local_load %v : !qd.ptr<f32>
            %sn = math.sin %o : f32
            %a = arith.constant 0.9 : f32
            %b = arith.constant 0.2 : f32
            %p = arith.mulf %o, %a : f32
            %q = arith.mulf %sn, %b : f32
            %s = arith.addf %p, %q : f32
            qd.local_store %s, %v : !qd.ptr<f32>
          }
        } else {
          qd.range_for %t = %c0 to %len : i32 {
            %wt = qd.ndarray_load %w[%t] : !qd.ndarray<?xf32>
            %o = qd.local_load %v : !qd.ptr<f32>
            %cs = math.cos %o : f32
            %k = arith.constant 0.3 : f32
            %m = arith.mulf %wt, %cs : f32
            %q = arith.mulf %m, %k : f32
            %s = arith.addf %o, %q : f32
            qd.local_store %s, %v : !qd.ptr<f32>
          }
        }
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
