//! Generic transforms: `canonicalize`, `cse`, `dce`, `symbol-dce`. One file per pass; each
//! exposes its pass struct and `<name>_pass_info()` for the registry.

pub mod canonicalize;
pub mod cse;
mod cse_table;
pub mod dce;
pub mod symbol_dce;

pub use canonicalize::{canonicalize_pass_info, CanonicalizePass};
pub use cse::{cse_pass_info, CsePass};
pub use dce::{dce_pass_info, DcePass};
pub use symbol_dce::{symbol_dce_pass_info, SymbolDcePass};

#[cfg(test)]
mod test_dialect;
