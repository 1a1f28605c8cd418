// ARGS: --allow-unregistered-dialect
// EXIT: 1
%c = arith.frobnicate 1 : i32
