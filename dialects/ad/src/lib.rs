//! The ad dialect: gradient declarations and adjoint access to fields and ndarrays
