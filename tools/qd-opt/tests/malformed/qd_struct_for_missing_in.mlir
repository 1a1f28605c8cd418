// EXIT: 1
module {
  qd.field @x : !qd.field<4xf32>
  qd.kernel @k() {
    qd.struct_for (%i) @x {
    }
  }
}
