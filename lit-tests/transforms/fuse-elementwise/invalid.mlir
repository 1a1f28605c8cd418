// A group too large for a kernel's i32 indices is a located error, not a wrong kernel.
// RUN: qd-opt %s --pass=fuse-elementwise -verify-diagnostics

func.func @huge(%x: !ndarray.array<65536x65536xf32>) -> !ndarray.array<65536x65536xf32> {
  // expected-error@+1 {{'ndarray.exp' op has 4294967296 elements; a fused kernel indexes at most 2147483647 (i32)}}
  %e = ndarray.exp %x : !ndarray.array<65536x65536xf32>
  return %e : !ndarray.array<65536x65536xf32>
}
