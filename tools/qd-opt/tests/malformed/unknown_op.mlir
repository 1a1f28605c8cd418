// EXIT: 1
"foo.bar"() : () -> ()
