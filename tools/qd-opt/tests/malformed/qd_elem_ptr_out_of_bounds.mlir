// EXIT: 1
module {
  qd.kernel @k() {
    %a = qd.alloca : !qd.ptr<!qd.array<4xf32>>
    %c9 = arith.constant 9 : i32
    %p = qd.elem_ptr %a[%c9] : !qd.ptr<!qd.array<4xf32>>
  }
}
