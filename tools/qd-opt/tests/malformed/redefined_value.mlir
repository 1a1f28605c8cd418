// EXIT: 1
%c = arith.constant 1 : i32
%c = arith.constant 2 : i32
