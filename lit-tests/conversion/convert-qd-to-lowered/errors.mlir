// RUN: qd-opt %s -p convert-qd-to-lowered --split-input-file --verify-diagnostics --allow-unregistered-dialect
// What convert-qd-to-lowered refuses, with a located error: an op it cannot convert, an adstack
// without its stable id or with another alloca's, a local or a stack used by another task than
// the one defining it.

qd.kernel @k() {
  qd.struct_for () in @s {
    // expected-error@+1 {{failed to legalize operation 'test.unknown'}}
    "test.unknown"() : () -> ()
  }
}
qd.field @s : !qd.field<f32>

// -----

qd.kernel @k(%v: f32) {
  // expected-error@+1 {{adstack.alloca has no 'id' property: run determine-ad-stack-size before convert-qd-to-lowered}}
  %s = adstack.alloca : f32 {max_size = 2}
  adstack.push %s, %v : f32
}

// -----

// Two allocas of one id would share one stack at run time (found by the passes fuzz target).
qd.kernel @k(%v: f32) {
  // expected-note@+1 {{adstack id 3 first used here}}
  %s = adstack.alloca : f32 {id = 3, max_size = 2}
  // expected-error@+1 {{adstack id 3 is used by two adstack.alloca ops of the kernel: run determine-ad-stack-size (which renumbers them) before convert-qd-to-lowered}}
  %t = adstack.alloca : f32 {id = 3, max_size = 2}
  adstack.push %s, %v : f32
  adstack.push %t, %v : f32
}

// -----

qd.field @x : !qd.field<4xf32>

qd.kernel @k() {
  // expected-note@+1 {{defined here}}
  %p = qd.alloca : !qd.ptr<f32>
  qd.struct_for (%i) in @x {
    // expected-error@+1 {{cannot lower: a value of type !qd.ptr<f32> defined by serial code of the kernel is used by another task (only integer and float scalars cross tasks)}}
    %v = qd.local_load %p : !qd.ptr<f32>
    qd.store %v, @x[%i] : f32
  }
}

// -----

qd.field @x : !qd.field<4xf32>

qd.kernel @k(%v: f32) {
  // expected-note@+1 {{defined here}}
  %s = adstack.alloca : f32 {id = 0, max_size = 2}
  qd.struct_for (%i) in @x {
    // expected-error@+1 {{cannot lower: an adstack of type !adstack.stack<f32> defined by serial code of the kernel is used by another task}}
    adstack.push %s, %v : f32
  }
}
