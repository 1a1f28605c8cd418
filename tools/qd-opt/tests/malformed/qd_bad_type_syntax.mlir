// EXIT: 1
module {
  qd.field @x : !qd.field<4xf32
}
