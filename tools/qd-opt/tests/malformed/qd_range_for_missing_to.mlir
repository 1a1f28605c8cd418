// EXIT: 1
module {
  qd.kernel @k() {
    %c0 = arith.constant 0 : i32
    qd.range_for %i = %c0 %c0 : i32 {
    }
  }
}
