// RUN: qd-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// Invalid !lowered.ptr types: global memory holds integers of 8 to 64 bits and floats; private
// memory scalars and qd local aggregates; the only memory space keyword is `private`.

// expected-error@+1 {{invalid !lowered.ptr type: a global pointee must be an integer of 8 to 64 bits or a float (i1 is widened), got i1}}
"x.op"() : () -> !lowered.ptr<i1>

// -----

// expected-error@+1 {{invalid !lowered.ptr type: a global pointee must be an integer of 8 to 64 bits or a float (i1 is widened), got !qd.array<4xf32>}}
"x.op"() : () -> !lowered.ptr<!qd.array<4xf32>>

// -----

// expected-error@+1 {{invalid !lowered.ptr type: a private pointee must be an integer or float scalar, !qd.array or !qd.struct, got index}}
"x.op"() : () -> !lowered.ptr<index, private>

// -----

// expected-error@+1 {{expected memory space 'private', got 'shared'}}
"x.op"() : () -> !lowered.ptr<f32, shared>

// -----

// expected-error@+1 {{unknown lowered type '!lowered.vec' (expected ptr)}}
"x.op"() : () -> !lowered.vec<f32>
