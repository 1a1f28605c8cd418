// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid kernel-data ops: arg, ndarray_ptr, ndarray_dim, field_ptr, temp_ptr, thread_id,
// task_begin.

lowered.kernel @k(%a: f32) attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.arg' op refers to argument 1, but the kernel has 1}}
    %v = lowered.arg 1 : f32
    lowered.return
  }
}

// -----

lowered.kernel @k(%a: f32) attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.arg' op expects the type of argument 0, f32, got i32}}
    %v = lowered.arg 0 : i32
    lowered.return
  }
}

// -----

lowered.kernel @k(%a: f32) attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.arg' op expects its result to be an integer or float, got !lowered.ptr<f32>}}
    %v = lowered.arg 0 : !lowered.ptr<f32>
    lowered.return
  }
}

// -----

lowered.kernel @k(%a: f32) attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.ndarray_ptr' op expects argument 0 to be a !qd.ndarray, got f32}}
    %p = lowered.ndarray_ptr 0 : !lowered.ptr<f32>
    lowered.return
  }
}

// -----

lowered.kernel @k(%a: !qd.ndarray<?xf32>) attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.ndarray_ptr' op expects a pointer to the ndarray element type f32 (i1 is stored as i8), got !lowered.ptr<f64>}}
    %p = lowered.ndarray_ptr 0 : !lowered.ptr<f64>
    lowered.return
  }
}

// -----

lowered.kernel @k(%a: !qd.ndarray<?x?xf32>) attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.ndarray_dim' op expects an axis below the ndarray's rank 2, got 2}}
    %d = lowered.ndarray_dim 0, 2 : i64
    lowered.return
  }
}

// -----

lowered.kernel @k(%a: !qd.ndarray<?xf32>) attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.ndarray_dim' op expects its result to be i64, got i32}}
    %d = "lowered.ndarray_dim"() <{index = 0 : i64, axis = 0 : i64}> : () -> i32
    lowered.return
  }
}

// -----

qd.field @x : !qd.field<4xf32>
lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.field_ptr' op expects field @x to be needs_grad (only those have an adjoint buffer)}}
    %p = lowered.field_ptr @x grad : !lowered.ptr<f32>
    lowered.return
  }
}

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.field_ptr' op expects a pointer to the field element type f32 (i1 is stored as i8), got !lowered.ptr<f64>}}
    %p = lowered.field_ptr @x grad : !lowered.ptr<f64>
    lowered.return
  }
}

// -----

qd.field @b : !qd.field<4xi1>
lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.field_ptr' op expects a pointer to the field element type i1 (i1 is stored as i8), got !lowered.ptr<i32>}}
    %p = lowered.field_ptr @b : !lowered.ptr<i32>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.field_ptr' op expects @k to be a 'qd.field', got 'lowered.kernel'}}
    %p = lowered.field_ptr @k : !lowered.ptr<f32>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.field_ptr' op '@nope' does not reference a valid symbol}}
    %p = lowered.field_ptr @nope : !lowered.ptr<f32>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 2} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.temp_ptr' op refers to temporaries slot 2, but the kernel has 2}}
    %p = lowered.temp_ptr 2 : !lowered.ptr<i64>
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 1} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.temp_ptr' op expects its result to be a global !lowered.ptr, got !lowered.ptr<i64, private>}}
    %p = lowered.temp_ptr 0 : !lowered.ptr<i64, private>
    lowered.return
  }
}

// -----

qd.kernel @q() {
  // expected-error@+1 {{'lowered.thread_id' op expects to be nested in a 'lowered.task'}}
  %t = lowered.thread_id : i64
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.task_begin' op expects to be in a range task}}
    %b = lowered.task_begin : i64
    lowered.return
  }
}

// -----

// A field without a type (fuzz-found: field_ptr's check read the field's type before the field
// was verified and panicked).
// expected-error@+1 {{'qd.field' op requires property 'type'}}
"qd.field"() <{sym_name = "x"}> : () -> ()
lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.field_ptr' op references field @x, which has no valid field type}}
    %p = lowered.field_ptr @x : !lowered.ptr<f32>
    lowered.return
  }
}
