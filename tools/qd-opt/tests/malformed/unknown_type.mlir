// EXIT: 1
%c = arith.constant 1 : !foo.bar<3>
