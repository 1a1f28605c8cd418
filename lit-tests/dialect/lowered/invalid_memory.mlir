// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid memory ops: offset, load, store, atomics, alloca, elem_ptr, member_ptr, bounds_check.

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %a = lowered.alloca : !lowered.ptr<!qd.array<4xf32>, private>
    %i = arith.constant 1 : i64
    // expected-error@+1 {{'lowered.offset' op expects a pointer to a scalar, got !lowered.ptr<!qd.array<4xf32>, private>}}
    %q = lowered.offset %a, %i : !lowered.ptr<!qd.array<4xf32>, private>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 1} {
  lowered.task @t serial {
    %p = lowered.temp_ptr 0 : !lowered.ptr<f32>
    %i = arith.constant 1 : i32
    // expected-error@+1 {{'lowered.offset' op expects operand 1 to be i64, got i32}}
    %q = "lowered.offset"(%p, %i) : (!lowered.ptr<f32>, i32) -> !lowered.ptr<f32>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 1} {
  lowered.task @t serial {
    %p = lowered.temp_ptr 0 : !lowered.ptr<f32>
    %i = arith.constant 1 : i64
    // expected-error@+1 {{'lowered.offset' op expects the result type !lowered.ptr<f32> to be the base's, got !lowered.ptr<i32>}}
    %q = "lowered.offset"(%p, %i) : (!lowered.ptr<f32>, i64) -> !lowered.ptr<i32>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %a = lowered.alloca : !lowered.ptr<!qd.struct<f32, i32>, private>
    // expected-error@+1 {{'lowered.load' op expects a pointer to a scalar, got !lowered.ptr<!qd.struct<f32, i32>, private>}}
    %v = lowered.load %a : !lowered.ptr<!qd.struct<f32, i32>, private>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 1} {
  lowered.task @t serial {
    %p = lowered.temp_ptr 0 : !lowered.ptr<f32>
    // expected-error@+1 {{'lowered.load' op expects the result type to be the pointee type f32, got f64}}
    %v = "lowered.load"(%p) : (!lowered.ptr<f32>) -> f64
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 1} {
  lowered.task @t serial {
    %p = lowered.temp_ptr 0 : !lowered.ptr<f32>
    // expected-error@+1 {{expected a !lowered.ptr type, got f32}}
    %v = lowered.load %p : f32
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 1} {
  lowered.task @t serial {
    %p = lowered.temp_ptr 0 : !lowered.ptr<f32>
    %v = arith.constant 1 : i32
    // expected-error@+1 {{'lowered.store' op expects the value type to be the pointee type f32, got i32}}
    "lowered.store"(%v, %p) : (i32, !lowered.ptr<f32>) -> ()
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %p = lowered.alloca : !lowered.ptr<f32, private>
    %v = arith.constant 1.0 : f32
    // expected-error@+1 {{'lowered.atomic_add' op expects operand 1 to be a global !lowered.ptr, got !lowered.ptr<f32, private>}}
    %o = lowered.atomic_add %v, %p : !lowered.ptr<f32, private>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 1} {
  lowered.task @t serial {
    %p = lowered.temp_ptr 0 : !lowered.ptr<i32>
    %v = arith.constant 1 : i32
    // expected-error@+1 {{'lowered.atomic_min' op expects the result type to be the pointee type i32, got i64}}
    %o = "lowered.atomic_min"(%v, %p) : (i32, !lowered.ptr<i32>) -> i64
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 1} {
  lowered.task @t serial {
    %p = lowered.temp_ptr 0 : !lowered.ptr<i32>
    %v = arith.constant 1 : i64
    // expected-error@+1 {{'lowered.atomic_max' op expects the value type to be the pointee type i32, got i64}}
    %o = "lowered.atomic_max"(%v, %p) : (i64, !lowered.ptr<i32>) -> i32
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.alloca' op expects its result to be a private !lowered.ptr, got !lowered.ptr<f32>}}
    %p = lowered.alloca : !lowered.ptr<f32>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %s = lowered.alloca : !lowered.ptr<!qd.struct<f32, i32>, private>
    %i = arith.constant 0 : i64
    // expected-error@+1 {{'lowered.elem_ptr' op expects a pointer to a !qd.array, got a pointer to !qd.struct<f32, i32>}}
    %e = lowered.elem_ptr %s[%i] : !lowered.ptr<!qd.struct<f32, i32>, private>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %a = lowered.alloca : !lowered.ptr<!qd.array<4xf32>, private>
    %i = arith.constant 0 : i64
    // expected-error@+1 {{'lowered.elem_ptr' op expects a private pointer to the element type f32, got !lowered.ptr<i32, private>}}
    %e = "lowered.elem_ptr"(%a, %i) : (!lowered.ptr<!qd.array<4xf32>, private>, i64) -> !lowered.ptr<i32, private>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %s = lowered.alloca : !lowered.ptr<!qd.struct<f32, i32>, private>
    // expected-error@+1 {{expected a private pointer to a !qd.struct with a member 2, got !lowered.ptr<!qd.struct<f32, i32>, private>}}
    %m = lowered.member_ptr %s[2] : !lowered.ptr<!qd.struct<f32, i32>, private>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %s = lowered.alloca : !lowered.ptr<!qd.struct<f32, i32>, private>
    // expected-error@+1 {{'lowered.member_ptr' op expects a member index below 2, got 2}}
    %m = "lowered.member_ptr"(%s) <{index = 2 : i64}> : (!lowered.ptr<!qd.struct<f32, i32>, private>) -> !lowered.ptr<i32, private>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %s = lowered.alloca : !lowered.ptr<!qd.struct<f32, i32>, private>
    // expected-error@+1 {{'lowered.member_ptr' op expects a private pointer to the member type f32, got !lowered.ptr<i32, private>}}
    %m = "lowered.member_ptr"(%s) <{index = 0 : i64}> : (!lowered.ptr<!qd.struct<f32, i32>, private>) -> !lowered.ptr<i32, private>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %a = lowered.alloca : !lowered.ptr<!qd.array<2xf32>, private>
    // expected-error@+1 {{'lowered.member_ptr' op expects a pointer to a !qd.struct, got a pointer to !qd.array<2xf32>}}
    %m = "lowered.member_ptr"(%a) <{index = 0 : i64}> : (!lowered.ptr<!qd.array<2xf32>, private>) -> !lowered.ptr<f32, private>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %i = arith.constant 1 : i64
    // expected-error@+1 {{'lowered.bounds_check' op requires property 'what'}}
    "lowered.bounds_check"(%i, %i) : (i64, i64) -> ()
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %i = arith.constant 1 : i32
    %n = arith.constant 4 : i64
    // expected-error@+1 {{'lowered.bounds_check' op expects operand 0 to be i64, got i32}}
    "lowered.bounds_check"(%i, %n) <{what = "x"}> : (i32, i64) -> ()
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %i = arith.constant 1 : i32
    %n = arith.constant 4 : i32
    // The custom form: every operand has the type after `:`.
    // expected-error@+1 {{'lowered.bounds_check' op expects operand 0 to be i64, got i32}}
    lowered.bounds_check [%i] in [%n] {what = "x"} : i32
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.bounds_check' op expects at least one index and its extent}}
    lowered.bounds_check [] in [] {what = "x"} : i64
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.bounds_check' op expects at least one index and its extent}}
    "lowered.bounds_check"() <{what = "x"}> : () -> ()
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %i = arith.constant 1 : i64
    %n = arith.constant 4 : i64
    // expected-error@+1 {{'lowered.bounds_check' op expects indices then as many extents, got 3 operands}}
    lowered.bounds_check [%i, %i] in [%n] {what = "x"} : i64
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %i = arith.constant 1 : i64
    %n = arith.constant 4 : i64
    // expected-error@+1 {{'lowered.bounds_check' op expects indices then as many extents, got 3 operands}}
    "lowered.bounds_check"(%i, %i, %n) <{what = "x"}> : (i64, i64, i64) -> ()
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %i = arith.constant 1 : i64
    %n = arith.constant 4 : i64
    // expected-error@+1 {{'lowered.bounds_check' op expects one index with 'local' (a local array's), got 2}}
    lowered.bounds_check [%i, %i] in [%n, %n] {what = "local array 'x'", local} : i64
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %i = arith.constant 1 : i64
    %n = arith.constant 4 : i64
    // expected-error@+1 {{'lowered.bounds_check' op property 'local' must be a unit attribute}}
    lowered.bounds_check [%i] in [%n] {what = "x", local = 1} : i64
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %i = arith.constant 1 : i64
    %n = arith.constant 4 : i64
    // expected-error@+1 {{expected 'in'}}
    lowered.bounds_check [%i], [%n] {what = "x"} : i64
    lowered.return
  }
}
