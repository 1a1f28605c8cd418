// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid control flow: for, if, while, condition, yield.

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %a = arith.constant 0 : i32
    %b = arith.constant 4 : i64
    // expected-error@+1 {{'lowered.for' op expects the bounds and the step to have one type}}
    "lowered.for"(%a, %b, %a) ({
    ^bb0(%i: i32):
      lowered.yield
    }) : (i32, i64, i32) -> ()
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %a = arith.constant 0.0 : f32
    // expected-error@+1 {{'lowered.for' op expects signless integer or index bounds, got f32}}
    lowered.for %i = %a to %a step %a : f32 {
      lowered.yield
    }
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %a = arith.constant 0 : i32
    // expected-error@+1 {{'lowered.for' op expects its body block to take one argument of the bounds' type}}
    "lowered.for"(%a, %a, %a) ({
      lowered.yield
    }) : (i32, i32, i32) -> ()
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %a = arith.constant 0 : i32
    %c = arith.constant true
    // expected-error@+1 {{'lowered.for' op expects its body region to end with 'lowered.yield'}}
    lowered.for %i = %a to %a step %a : i32 {
      // expected-error@+1 {{'lowered.condition' op expects to terminate the condition region of a 'lowered.while'}}
      lowered.condition %c
    }
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %a = arith.constant 0 : i32
    // expected-error@+1 {{'lowered.if' op expects operand 0 to be i1, got i32}}
    "lowered.if"(%a) ({
      lowered.yield
    }, {
    }) : (i32) -> ()
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %c = arith.constant true
    // expected-error@+1 {{'lowered.if' op expects its then region to have one block, got 0}}
    "lowered.if"(%c) ({
    }, {
    }) : (i1) -> ()
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %c = arith.constant true
    // expected-error@+1 {{'lowered.if' op expects 2 regions, got 1}}
    "lowered.if"(%c) ({
      lowered.yield
    }) : (i1) -> ()
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %c = arith.constant true
    // expected-error@+1 {{'lowered.while' op expects its condition region to end with 'lowered.condition'}}
    lowered.while {
      // expected-error@+1 {{'lowered.yield' op expects to terminate a region of 'lowered.for', 'lowered.if' or the body of 'lowered.while'}}
      lowered.yield
    } do {
      lowered.yield
    }
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %c = arith.constant true
    // expected-error@+1 {{'lowered.while' op expects its body region to end with 'lowered.yield'}}
    lowered.while {
      lowered.condition %c
    } do {
      // expected-error@+1 {{'lowered.condition' op expects to terminate the condition region of a 'lowered.while'}}
      lowered.condition %c
    }
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  lowered.task @t serial {
    %c = arith.constant 1 : i32
    lowered.while {
      // expected-error@+1 {{'lowered.condition' op expects operand 0 to be i1, got i32}}
      "lowered.condition"(%c) : (i32) -> ()
    } do {
      lowered.yield
    }
    lowered.return
  }
}

// -----

lowered.kernel @k() attributes {temps = 0} {
  // expected-error@+1 {{'lowered.task' op expects its body region to end with 'lowered.return'}}
  lowered.task @t serial {
    // expected-error@+1 {{'lowered.yield' op expects to terminate a region of 'lowered.for', 'lowered.if' or the body of 'lowered.while'}}
    lowered.yield
  }
}
