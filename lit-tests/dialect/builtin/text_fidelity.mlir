// Text fidelity against mlir-opt 22 (#17): qd-opt and mlir-opt print the same inputs and the
// outputs must be byte for byte the same, in the custom and the generic form, with and without
// debug info (builtin shaped types, strided and affine_map layouts, memory spaces, dense
// elements in splat/list/hex forms, integers wider than 64 bits, #map aliases, predecessor
// comments, nested modules, builtin op prefixes, locations and their #loc aliases).
// REQUIRES: mlir-opt
// RUN: qd-opt --allow-unregistered-dialect %S/Inputs/shaped_and_dense.mlir > %t.qd
// RUN: mlir-opt --allow-unregistered-dialect %S/Inputs/shaped_and_dense.mlir > %t.mlir
// RUN: diff %t.mlir %t.qd
// RUN: qd-opt --allow-unregistered-dialect --mlir-print-op-generic %S/Inputs/shaped_and_dense.mlir > %t.qd
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %S/Inputs/shaped_and_dense.mlir > %t.mlir
// RUN: diff %t.mlir %t.qd
// RUN: qd-opt --allow-unregistered-dialect --mlir-print-debuginfo %S/Inputs/shaped_and_dense.mlir > %t.qd
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo %S/Inputs/shaped_and_dense.mlir > %t.mlir
// RUN: diff %t.mlir %t.qd
// RUN: qd-opt --allow-unregistered-dialect --mlir-print-debuginfo %S/Inputs/locations.mlir > %t.qd
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo %S/Inputs/locations.mlir > %t.mlir
// RUN: diff %t.mlir %t.qd
// RUN: qd-opt --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-op-generic %S/Inputs/locations.mlir > %t.qd
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-op-generic %S/Inputs/locations.mlir > %t.mlir
// RUN: diff %t.mlir %t.qd
// RUN: qd-opt --allow-unregistered-dialect %S/Inputs/locations.mlir > %t.qd
// RUN: mlir-opt --allow-unregistered-dialect %S/Inputs/locations.mlir > %t.mlir
// RUN: diff %t.mlir %t.qd
// The printed text reads back to the same print (locations and aliases included).
// RUN: qd-opt --allow-unregistered-dialect --mlir-print-debuginfo %S/Inputs/locations.mlir | qd-opt --allow-unregistered-dialect --mlir-print-debuginfo > %t.again
// RUN: qd-opt --allow-unregistered-dialect --mlir-print-debuginfo %S/Inputs/locations.mlir > %t.qd
// RUN: diff %t.qd %t.again
// RUN: qd-opt --allow-unregistered-dialect %S/Inputs/shaped_and_dense.mlir | qd-opt --allow-unregistered-dialect --mlir-print-op-generic | qd-opt --allow-unregistered-dialect > %t.again
// RUN: qd-opt --allow-unregistered-dialect %S/Inputs/shaped_and_dense.mlir > %t.qd
// RUN: diff %t.qd %t.again
// arith.constant holds dense elements and wide integers (name hints %cst, %c<value>_i128).
// RUN: qd-opt %S/Inputs/arith_dense.mlir > %t.qd
// RUN: mlir-opt %S/Inputs/arith_dense.mlir > %t.mlir
// RUN: diff %t.mlir %t.qd
// RUN: qd-opt --mlir-print-op-generic %S/Inputs/arith_dense.mlir > %t.qd
// RUN: mlir-opt --mlir-print-op-generic %S/Inputs/arith_dense.mlir > %t.mlir
// RUN: diff %t.mlir %t.qd
// Affine maps simplify as MLIR's AffineExpr constructors do (the maps of upstream IR/affine-map.mlir).
// RUN: qd-opt --allow-unregistered-dialect %S/Inputs/affine_maps.mlir > %t.qd
// RUN: mlir-opt --allow-unregistered-dialect %S/Inputs/affine_maps.mlir > %t.mlir
// RUN: diff %t.mlir %t.qd
