// EXIT: 1
module {
  %c = arith.constant 1 : i32
  %d = arith.addi %c, 