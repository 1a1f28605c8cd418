//! Upstream MLIR's arith dialect (the subset kernels need): ops, verifiers, folders, custom syntax
