// EXIT: 1
module {
  qd.kernel @k() {
    qd.struct_for (%i) in @nowhere {
    }
  }
}
