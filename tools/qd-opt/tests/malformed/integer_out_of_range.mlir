// EXIT: 1
%c = arith.constant 300 : i8
