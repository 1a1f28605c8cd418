// EXIT: 1
// A literal index (an attribute of the op) out of bounds is invalid IR. A constant index
// operand out of bounds is not: it fails when it runs (tools/qd-run tests, errors.rs).
module {
  qd.kernel @k() {
    %a = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
    %p = qd.member_ptr %a[2] : !qd.ptr<!qd.struct<f32, i32>>
  }
}
