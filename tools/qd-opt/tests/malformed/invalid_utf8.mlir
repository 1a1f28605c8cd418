// EXIT: 1
%c = arith.constant 1 : i32 // ÿþ
