//! Generic transforms: canonicalize, cse, dce, symbol-dce
