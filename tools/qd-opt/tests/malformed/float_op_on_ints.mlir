// EXIT: 1
%a = arith.constant 1 : i32
%c = arith.addf %a, %a : i32
