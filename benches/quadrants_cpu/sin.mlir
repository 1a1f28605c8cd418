// (b) sin body: v = sin(v)*0.9 + 0.1, the trip count a[i] (= 64) read from an ndarray argument,
// N = 2^20 threads. Every iteration's primal is kept (the body is non-linear).
module {
  qd.field @x : !qd.field<1048576xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%a: !qd.ndarray<?xi32>) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.ndarray_load %a[%i] : !qd.ndarray<?xi32>
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %t = qd.local_load %v : !qd.ptr<f32>
        %sn = math.sin %t : f32
        %k = arith.constant 0.9 : f32
        %b = arith.constant 0.1 : f32
        %m = arith.mulf %sn, %k : f32
        %s = arith.addf %m, %b : f32
        qd.local_store %s, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %r, @y[] : f32
    }
  }
}
