// EXIT: 1
// A literal path entry out of bounds is invalid IR (a value entry, even a constant one, is
// checked when it runs).
module {
  qd.kernel @k() {
    %a = qd.alloca : !qd.ptr<!qd.array<4xf32>>
    %v = ad.load_element %a[9] : !qd.ptr<!qd.array<4xf32>>
  }
}
