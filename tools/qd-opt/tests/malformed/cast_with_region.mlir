// EXIT: 1
"builtin.unrealized_conversion_cast"() ({
}) : () -> ()
