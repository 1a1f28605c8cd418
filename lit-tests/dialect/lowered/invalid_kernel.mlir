// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid lowered.kernel, lowered.task and lowered.return ops.

// expected-error@+1 {{'lowered.kernel' op expects a kernel to return nothing}}
"lowered.kernel"() <{function_type = () -> i32, sym_name = "k", temps = 0 : i64}> ({
^bb0:
}) : () -> ()

// -----

// expected-error@+1 {{'lowered.kernel' op expects argument 0 to be an integer or float scalar or a !qd.ndarray, got index}}
lowered.kernel @k(%a: index) attributes {temps = 0} {
}

// -----

// expected-error@+1 {{'lowered.kernel' op expects the body block's arguments to match 'function_type'}}
"lowered.kernel"() <{function_type = (f32) -> (), sym_name = "k", temps = 0 : i64}> ({
^bb0(%a: i32):
}) : () -> ()

// -----

// expected-error@+1 {{'lowered.kernel' op expects only 'lowered.task' ops in its body, got 'arith.constant'}}
lowered.kernel @k() attributes {temps = 0} {
  %c = arith.constant 0 : i32
}

// -----

// expected-error@+1 {{'lowered.kernel' op requires property 'temps'}}
lowered.kernel @k() {
}

// -----

// expected-error@+1 {{'lowered.kernel' op property 'temps' must be a non-negative i64 integer}}
lowered.kernel @k() attributes {temps = -1} {
}

// -----

qd.kernel @q() {
  // expected-error@+1 {{'lowered.kernel' op expects its parent to be a symbol table (such as 'builtin.module'), got 'qd.kernel'}}
  lowered.kernel @k() attributes {temps = 0} {
  }
}

// -----

// expected-error@+1 {{'lowered.task' op expects its parent to be a 'lowered.kernel', got 'builtin.module'}}
lowered.task @t serial {
  lowered.return
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  // expected-error@+1 {{'lowered.task' op expects property 'kind' to be "serial" or "range"}}
  "lowered.task"() <{kind = "parallel", sym_name = "t"}> ({
    lowered.return
  }) : () -> ()
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  // expected-error@+1 {{expected 'serial' or 'range', got 'parallel'}}
  lowered.task @t parallel {
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  // expected-error@+1 {{'lowered.task' op expects no 'begin' on a serial task}}
  "lowered.task"() <{kind = "serial", sym_name = "t", begin = 0 : i64}> ({
    lowered.return
  }) : () -> ()
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  // expected-error@+1 {{'lowered.task' op expects 'end' or 'end_temp' on a range task}}
  "lowered.task"() <{kind = "range", sym_name = "t", begin = 0 : i64}> ({
    lowered.return
  }) : () -> ()
}

// -----

lowered.kernel @k() attributes {temps = 1} {
  // expected-error@+1 {{'lowered.task' op expects one of 'begin' and 'begin_temp', got both}}
  "lowered.task"() <{kind = "range", sym_name = "t", begin = 0 : i64, begin_temp = 0 : i64, end = 4 : i64}> ({
    lowered.return
  }) : () -> ()
}

// -----

lowered.kernel @k() attributes {temps = 1} {
  // expected-error@+1 {{'lowered.task' op reads temporaries slot 1, but the kernel has 1}}
  lowered.task @t range(0, temp 1) {
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  // expected-error@+1 {{'lowered.task' op lists adstack id 2 twice}}
  lowered.task @t serial adstacks [2, 0, 2] {
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  // expected-error@+1 {{'lowered.task' op expects adstack ids in [0, 2^32), got -1}}
  lowered.task @t serial adstacks [-1] {
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  // expected-error@+1 {{'lowered.task' op expects its body region to have one block, got 0}}
  lowered.task @t serial {
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %c = arith.constant true
    // expected-error@+1 {{'lowered.if' op expects its then region to end with 'lowered.yield'}}
    lowered.if %c {
      // expected-error@+1 {{'lowered.return' op expects its parent to be a 'lowered.task', got 'lowered.if'}}
      lowered.return
    }
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  // expected-note@+1 {{see existing symbol definition here}}
  lowered.task @t serial {
    lowered.return
  }
  // expected-error@+1 {{redefinition of symbol named 't'}}
  lowered.task @t serial {
    lowered.return
  }
}
