// ARGS: --allow-unregistered-dialect
// EXIT: 1
"test.op"() ({
^bb0(%a: i32):
  "test.br"()[^nowhere] : () -> ()
}) : () -> ()
