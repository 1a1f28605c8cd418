//! qd-jit's tests: tracing and the cache, forward results against a host reference, gradients
//! against central finite differences in f64 and against the interpreter, primitives, the
//! detection-loss pattern (loss), approximate functions on the cpu device (approx), the adjoint
//! buffers a backward writes in full or zeroes (adjoints).

mod adjoints;
mod approx;
mod common;
mod forward;
mod grad;
mod loss;
