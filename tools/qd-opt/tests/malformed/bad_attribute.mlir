// EXIT: 1
"test.op"() {x = } : () -> ()
