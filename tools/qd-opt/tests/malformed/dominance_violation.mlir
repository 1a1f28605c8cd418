// EXIT: 1
module {
  qd.kernel @k() {
    %a = arith.addi %b, %b : i32
    %b = arith.constant 1 : i32
  }
}
