//! The adstack dialect: per-thread stacks of loop-carried values for reverse mode
