//! Upstream MLIR's math dialect (the subset kernels need): ops, verifiers, folders, custom syntax
