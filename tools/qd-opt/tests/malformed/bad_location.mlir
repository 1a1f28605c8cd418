// ARGS: --allow-unregistered-dialect
// EXIT: 1
"test.op"() : () -> () loc("file.mlir":x:2)
