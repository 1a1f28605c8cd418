// --split-input-file as mlir-opt 22. The split marker (two slashes, a space, five dashes)
// splits wherever it is on a line, also after other text (so CHECK lines below spell it with
// a regex block); with four dashes it is a near miss (a warning; the text stays in its chunk).
// Each chunk's output is followed by an empty line, a failing chunk prints nothing but keeps
// its separators, and diagnostics keep the file's lines and columns. Nothing in this file's
// comments may contain the marker.
// RUN: not qd-opt %s --split-input-file --allow-unregistered-dialect > %t.out 2> %t.err
// RUN: FileCheck %s --strict-whitespace --match-full-lines < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// CHECK:{{^}}module {
// CHECK-NEXT:{{^}}  "t.a"() : () -> ()
// CHECK-NEXT:{{^}}}
// CHECK-EMPTY:
// CHECK-NEXT:{{^}}{{//}} -----
// CHECK-NEXT:{{^}}{{//}} -----
// CHECK-NEXT:{{^}}module {
// CHECK-NEXT:{{^}}  "t.c"() : () -> ()
// CHECK-NEXT:{{^}}}
// CHECK-EMPTY:
// CHECK-NEXT:{{^}}{{//}} -----
// CHECK-NEXT:{{^}}module {
// CHECK-NEXT:{{^}}  "t.d"() : () -> ()
// CHECK-NEXT:{{^}}  "t.e"() : () -> ()
// CHECK-NEXT:{{^}}}
// CHECK-EMPTY:

// ERR: split.mlir:[[# @LINE + 9]]:7: warning: near miss with file split marker
// ERR: split.mlir:[[# @LINE + 2]]:9: error: custom op 'x' is unknown (tried 'builtin.x' as well)
"t.a"() : () -> ()
// -----x
"t.b"() : () -> ()
   // -----   
"t.c"() : () -> ()
// // -----
"t.d"() : () -> ()
// ----
"t.e"() : () -> ()
