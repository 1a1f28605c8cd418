// EXIT: 1
module {
  qd.field @x : !qd.field<4xf32>
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %c = arith.constant 1 : i32
      qd.store %c, @x[%i] : i32
    }
  }
}
