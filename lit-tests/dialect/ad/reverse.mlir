// RUN: qd-opt %s | qd-opt | FileCheck %s
// ad.reverse: wanted (default activity), with explicit activity, and with its gradient kernel.

qd.kernel @f(%a: !qd.ndarray<?xf32>, %s: f32) {
}
qd.kernel @g(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?x?xf64>, %n: !qd.ndarray<?xi32>) {
}
qd.kernel @g_grad(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?x?xf64>, %n: !qd.ndarray<?xi32>, %db: !qd.ndarray<?x?xf64>) {
}
qd.kernel @h(%a: !qd.ndarray<?xf32>, %n: !qd.ndarray<?xi32>) {
}
qd.kernel @h_grad(%a: !qd.ndarray<?xf32>, %n: !qd.ndarray<?xi32>, %da: !qd.ndarray<?xf32>) {
}

// CHECK: ad.reverse @f{{$}}
ad.reverse @f
// CHECK: ad.reverse @g -> @g_grad {active = [false, true, false]}
ad.reverse @g -> @g_grad {active = [false, true, false]}
// Default activity: the float ndarray only.
// CHECK: ad.reverse @h -> @h_grad {note = "kept"}
ad.reverse @h -> @h_grad {note = "kept"}
