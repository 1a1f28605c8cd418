// EXIT: 1
module {
  qd.field @x : !qd.field<4xf32>
  qd.kernel @k() {
    %c = arith.constant 0 : i32
    %v = qd.load @x[%c, %c] : f32
  }
}
