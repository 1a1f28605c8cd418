// EXIT: 1
%c = "arith.constant"() <{value = "text"}> : () -> i32
