// EXIT: 1
module {
  qd.field @x : !qd.tensor<4xf32>
}
