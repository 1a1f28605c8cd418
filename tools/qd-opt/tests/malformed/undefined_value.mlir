// EXIT: 1
%c = arith.addi %x, %x : i32
