// EXIT: 1
%c = arith.constant 1 : i0x
