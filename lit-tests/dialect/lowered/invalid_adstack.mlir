// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid adstack heap ops: adstack_stride, adstack_offset, adstack_max_size, adstack_row,
// heap_ptr, adstack_overflow.

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{expected heap 'float' or 'int', got 'double'}}
    %s = lowered.adstack_stride double : i64
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.adstack_stride' op property 'heap' must be "float" or "int"}}
    %s = "lowered.adstack_stride"() <{heap = "double"}> : () -> i64
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial adstacks [0] {
    // expected-error@+1 {{'lowered.adstack_offset' op refers to adstack 1, which is not in its task's 'adstacks'}}
    %o = lowered.adstack_offset 1 : i64
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.adstack_max_size' op refers to adstack 0, which is not in its task's 'adstacks'}}
    %c = lowered.adstack_max_size 0 : i64
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial adstacks [0] {
    // expected-error@+1 {{'lowered.adstack_max_size' op expects its result to be i64, got i32}}
    %c = "lowered.adstack_max_size"() <{id = 0 : i64}> : () -> i32
    lowered.return
  }
}

// -----

qd.kernel @q() {
  // expected-error@+1 {{'lowered.adstack_row' op expects to be nested in a 'lowered.task'}}
  %r = lowered.adstack_row : i64
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %b = arith.constant 8 : i64
    // expected-error@+1 {{'lowered.heap_ptr' op expects its result to be a global !lowered.ptr, got !lowered.ptr<f32, private>}}
    %p = lowered.heap_ptr float, %b : !lowered.ptr<f32, private>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %b = arith.constant 8 : i32
    // expected-error@+1 {{'lowered.heap_ptr' op expects operand 0 to be i64, got i32}}
    %p = "lowered.heap_ptr"(%b) <{heap = "int"}> : (i32) -> !lowered.ptr<i32>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial adstacks [3] {
    // expected-error@+1 {{'lowered.adstack_overflow' op refers to adstack 4, which is not in its task's 'adstacks'}}
    lowered.adstack_overflow 4
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.adstack_overflow' op property 'id' must be a non-negative i64 integer}}
    "lowered.adstack_overflow"() <{id = -1 : i64}> : () -> ()
    lowered.return
  }
}
