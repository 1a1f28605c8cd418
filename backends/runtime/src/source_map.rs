//! [`SourceMap`]: the error codes of one compiled kernel and the source locations they stand for.
//! A compiled device cannot carry a [`Location`] into device code; it emits a small integer code
//! instead (an out-of-bounds check writes it into an error record), the host side keeps this
//! table, and [`crate::Device::error_location`] maps a reported code back to its location, which
//! the program attaches to the [`crate::RuntimeError`].

use qd_ir::Location;

/// Error codes of one kernel: code `i` is the `i`-th distinct location given a code.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SourceMap {
    locs: Vec<Location>,
}

impl SourceMap {
    pub fn new() -> Self {
        SourceMap::default()
    }

    /// The code of `loc`, given one on first use (the same location always gets the same code).
    pub fn code(&mut self, loc: Location) -> u32 {
        if let Some(i) = self.locs.iter().position(|&l| l == loc) {
            return i as u32;
        }
        self.locs.push(loc);
        (self.locs.len() - 1) as u32
    }

    /// The location of `code`, when this map gave it.
    pub fn location(&self, code: u32) -> Option<Location> {
        self.locs.get(code as usize).copied()
    }

    pub fn len(&self) -> usize {
        self.locs.len()
    }
    pub fn is_empty(&self) -> bool {
        self.locs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qd_ir::Context;

    #[test]
    fn codes_are_stable_and_map_back() {
        let mut ctx = Context::new();
        let a = ctx.file_loc("k.mlir", 3, 7);
        let b = ctx.file_loc("k.mlir", 9, 1);
        let mut m = SourceMap::new();
        assert!(m.is_empty());
        assert_eq!(m.code(a), 0);
        assert_eq!(m.code(b), 1);
        assert_eq!(m.code(a), 0);
        assert_eq!(m.len(), 2);
        assert_eq!(m.location(1), Some(b));
        assert_eq!(m.location(2), None);
    }
}
