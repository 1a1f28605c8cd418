// ARGS: --allow-unregistered-dialect
// EXIT: 1
"test.op"() {s = "abc} : () -> ()
