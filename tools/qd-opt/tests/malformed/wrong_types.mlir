// EXIT: 1
%a = arith.constant 1 : i32
%b = arith.constant 2.0 : f32
%c = arith.addi %a, %b : i32
