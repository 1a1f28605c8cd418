//! The runtime API every device shares: Program, fields, ndarrays, kernels, launch, sync
