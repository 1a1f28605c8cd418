//! The reference interpreter of qd + arith + math, with an extension point per dialect
