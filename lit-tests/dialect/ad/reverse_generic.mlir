// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// ad.reverse in the generic form: kernel, gradient and active are properties.

// GENERIC: "ad.reverse"() <{kernel = @f}> : () -> ()
// GENERIC: "ad.reverse"() <{active = [true], gradient = @g_grad, kernel = @g}> : () -> ()
// CHECK: ad.reverse @f{{$}}
// CHECK: ad.reverse @g -> @g_grad {active = [true]}

"qd.kernel"() <{function_type = () -> (), sym_name = "f"}> ({
}) : () -> ()
"qd.kernel"() <{function_type = (!qd.ndarray<?xf32>) -> (), sym_name = "g"}> ({
^bb0(%a: !qd.ndarray<?xf32>):
}) : () -> ()
"qd.kernel"() <{function_type = (!qd.ndarray<?xf32>, !qd.ndarray<?xf32>) -> (), sym_name = "g_grad"}> ({
^bb0(%a: !qd.ndarray<?xf32>, %da: !qd.ndarray<?xf32>):
}) : () -> ()
"ad.reverse"() <{kernel = @f}> : () -> ()
"ad.reverse"() <{kernel = @g, gradient = @g_grad, active = [true]}> : () -> ()
