// ARGS: --allow-unregistered-dialect
// EXIT: 1
%a, %b = "test.op"() : () -> i32
