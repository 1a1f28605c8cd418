// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file --verify-diagnostics
// Loop-carried locals outside the shapes sizing bounds: the error says which value, that it
// is loop-carried, and why its update is not bounded.

// The carrying loop runs three times per allocation of m and nothing resets m before it.
qd.kernel @no_reset(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    // expected-error@+1 {{cannot size this adstack: %2 (the result of 'qd.local_load') cannot be bounded: it is loop-carried (its local is stored, in a loop around it, a value computed from its own): the loop that carries it runs several times per allocation of its local and no store before it resets the local, so the value it starts from is carried too; sizing bounds such a local only when}}
    %s = adstack.alloca : f32
    %m = qd.alloca : !qd.ptr<i32>
    qd.local_store %c1, %m : !qd.ptr<i32>
    qd.range_for %o = %c0 to %c3 : i32 {
      qd.range_for %j = %c0 to %c3 : i32 {
        // expected-note@+1 {{%2 is defined here}}
        %mv = qd.local_load %m : !qd.ptr<i32>
        qd.range_for %k = %c0 to %mv : i32 {
          adstack.push %s, %v : f32
        }
        %m2 = arith.addi %mv, %c1 : i32
        qd.local_store %m2, %m : !qd.ptr<i32>
      }
    }
  }
}

