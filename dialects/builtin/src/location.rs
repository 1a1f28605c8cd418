//! Interned source locations, as MLIR's: file:line:col, named, fused, call-site, unknown.

use crate::entity::{Attribute, Ident, Location};

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum LocData {
    Unknown,
    FileLineCol {
        file: Ident,
        line: u32,
        col: u32,
    },
    Name {
        name: Ident,
        child: Option<Location>,
    },
    Fused {
        locs: Vec<Location>,
        metadata: Option<Attribute>,
    },
    CallSite {
        callee: Location,
        caller: Location,
    },
}
