// RUN: qd-opt %s --pass=reverse-mode-ad --split-input-file --verify-diagnostics
// RUN: not qd-opt %s --pass=reverse-mode-ad --split-input-file 2>&1 | FileCheck %s
// The exact access rule (docs/access-rule.md): a kernel is refused only when its gradient would
// replay a read whose value it needs after a later forward write may have changed the element
// (the error is at the write and names the read, the note is at the read), or when a write and
// a read of one element race between threads of one parallel loop.

// A nonlinear update in place: x[i] = x[i]^2.
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.kernel @square_in_place() {
  qd.struct_for (%i) in @x {
    // expected-note@+1 {{the gradient needs its value}}
    %a = qd.load @x[%i] : f32
    %b = arith.mulf %a, %a : f32
    // expected-error@+1 {{this qd.store may overwrite an element of @x that the qd.load at}}
    qd.store %b, @x[%i] : f32
  }
}

// -----

// x[k, i] = sin(x[k, i+1]): iteration i+1 overwrites what iteration i read.
qd.field @x : !qd.field<4x8xf32> {needs_grad}
qd.kernel @shift_down() {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c7 = arith.constant 7 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %k = %c0 to %c4 : i32 {
    qd.range_for %i = %c0 to %c7 : i32 {
      %n = arith.addi %i, %c1 : i32
      // expected-note@+1 {{the gradient needs its value}}
      %a = qd.load @x[%k, %n] : f32
      %s = math.sin %a : f32
      // expected-error@+1 {{read earlier in the same thread, and the gradient needs the value read}}
      qd.store %s, @x[%k, %i] : f32
    }
  }
}

// -----

// A later task overwrites what an earlier one read and squared.
qd.field @b : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @later_task() {
  qd.struct_for (%i) in @b {
    // expected-note@+1 {{the gradient needs its value}}
    %a = qd.load @b[%i] : f32
    %s = arith.mulf %a, %a : f32
    qd.store %s, @y[%i] : f32
  }
  qd.struct_for (%i) in @b {
    %z = arith.constant 0.0 : f32
    // expected-error@+1 {{may overwrite an element of @b that the qd.load at}}
    qd.store %z, @b[%i] : f32
  }
}

// -----

// A gathered read x[p[i]] and a store x[i]: data-dependent indices may alias, here across threads.
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @p : !qd.field<4xi32>
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @gathered_then_stored() {
  qd.struct_for (%i) in @x {
    %j = qd.load @p[%i] : i32
    // expected-note@+1 {{the element of @x read here}}
    %a = qd.load @x[%j] : f32
    %s = math.sin %a : f32
    qd.store %s, @y[%i] : f32
    // expected-error@+1 {{may write an element of @x that the qd.load at}}
    qd.store %s, @x[%i] : f32
  }
}

// -----

// x[i+1] = 2 x[i] in a parallel loop: thread i+1 reads what thread i writes, a race even though the
// value is not needed.
qd.field @x : !qd.field<8xf32> {needs_grad}
qd.kernel @neighbour_race() {
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %i = %c0 to %c7 : i32 {
    // expected-note@+1 {{the element of @x read here}}
    %a = qd.load @x[%i] : f32
    %two = arith.constant 2.0 : f32
    %b = arith.mulf %two, %a : f32
    %n = arith.addi %i, %c1 : i32
    // expected-error@+1 {{reads in another thread of this parallel loop (a data race)}}
    qd.store %b, @x[%n] : f32
  }
}

// -----

// An atomic scatter and a read of the same field in one parallel loop: a race.
qd.field @a : !qd.field<4xf32> {needs_grad}
qd.field @q : !qd.field<4xi32>
qd.field @b : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @scatter_and_gather() {
  qd.struct_for (%i) in @a {
    %j = qd.load @q[%i] : i32
    %v = qd.load @a[%i] : f32
    // expected-error@+1 {{this qd.atomic_add may write an element of @b that the qd.load at}}
    qd.atomic_add %v, @b[%j] : f32
    // expected-note@+1 {{the element of @b read here}}
    %w = qd.load @b[%i] : f32
    qd.store %w, @y[%i] : f32
  }
}

// -----

// ndarrays follow the same rule: a[i] = a[i]^2.
qd.kernel @ndarray_in_place(%a: !qd.ndarray<?xf32>) {
  %c0 = arith.constant 0 : i32
  %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
  qd.range_for %i = %c0 to %n : i32 {
    // expected-note@+1 {{the gradient needs its value}}
    %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
    %w = arith.mulf %v, %v : f32
    // expected-error@+1 {{this qd.ndarray_store may overwrite an element of ndarray argument #0}}
    qd.ndarray_store %w, %a[%i] : !qd.ndarray<?xf32>
  }
}

// -----

// A while's condition reads x[i], which its body halves: the replay records the trip count from
// the condition, so its read is needed. (The body's own read feeds a product by a constant only.)
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @halve_while_large() {
  qd.struct_for (%i) in @x {
    qd.while {
      // expected-note@+1 {{the gradient needs its value}}
      %v = qd.load @x[%i] : f32
      %one = arith.constant 1.0 : f32
      %c = arith.cmpf ogt, %v, %one : f32
      qd.condition %c
    } do {
      %v = qd.load @x[%i] : f32
      %h = arith.constant 0.5 : f32
      %w = arith.mulf %v, %h : f32
      // expected-error@+1 {{may overwrite an element of @x that the qd.load at}}
      qd.store %w, @x[%i] : f32
      qd.atomic_add %w, @y[%i] : f32
    }
  }
}

// -----

// The value read reaches the gradient through a local: x[i] is read into a local, zeroed, and the
// local squared.
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @through_a_local() {
  qd.struct_for (%i) in @x {
    %p = qd.alloca : !qd.ptr<f32>
    // expected-note@+1 {{the gradient needs its value}}
    %a = qd.load @x[%i] : f32
    qd.local_store %a, %p : !qd.ptr<f32>
    %z = arith.constant 0.0 : f32
    // expected-error@+1 {{may overwrite an element of @x that the qd.load at}}
    qd.store %z, @x[%i] : f32
    %v = qd.local_load %p : !qd.ptr<f32>
    %s = arith.mulf %v, %v : f32
    qd.store %s, @y[%i] : f32
  }
}

// The whole messages (line numbers are this file's):
// CHECK: access_rule_errors.mlir:16:5: error: global data access rule violated: this qd.store may overwrite an element of @x that the qd.load at 13:10 read earlier in the same thread, and the gradient needs the value read; the gradient kernel would replay that read with the overwritten value (write the new values to another field or ndarray)
// CHECK: access_rule_errors.mlir:13:10: note: the element of @x read here; the gradient needs its value
// CHECK: access_rule_errors.mlir:56:5: error: global data access rule violated: this qd.store may overwrite an element of @b that the qd.load at 49:10 read in an earlier task, and the gradient needs the value read; the gradient kernel would replay that read with the overwritten value (write the new values to another field or ndarray)
// CHECK: access_rule_errors.mlir:49:10: note: the element of @b read here; the gradient needs its value
// CHECK: access_rule_errors.mlir:94:5: error: global data access rule violated: this qd.store may write an element of @x that the qd.load at 89:10 reads in another thread of this parallel loop (a data race)
// CHECK: access_rule_errors.mlir:89:10: note: the element of @x read here
// CHECK: access_rule_errors.mlir:151:7: error: global data access rule violated: this qd.store may overwrite an element of @x that the qd.load at 142:12 read earlier in the same thread, and the gradient needs the value read; the gradient kernel would replay that read with the overwritten value (write the new values to another field or ndarray)
// CHECK: access_rule_errors.mlir:142:12: note: the element of @x read here; the gradient needs its value
