// EXIT: 1
"test.op"(%0