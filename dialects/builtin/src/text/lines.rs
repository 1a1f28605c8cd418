//! Byte offsets of the parsed text to line:column and to `file:line:col` locations, and [`At`],
//! a position kept as an offset until a message needs its location.

use crate::context::Context;
use crate::entity::{Ident, Location};
use crate::location::LocData;
use std::cell::Cell;

/// Where something is in the text, for diagnostics: a byte offset (made a location only when a
/// message needs it: interning one per SSA name and use made a large part of parsing), or a
/// location already made (given by `loc(...)`, or for an offset past `u32::MAX`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum At {
    Offset(u32),
    Loc(Location),
}

/// The line starts of one text, with the file name its locations carry.
pub(crate) struct Lines {
    file: Ident,
    starts: Vec<usize>,
    /// The line found by the last lookup (ops are mostly read in order).
    hint: Cell<usize>,
}

impl Lines {
    pub(crate) fn new(file: Ident, src: &str) -> Self {
        let mut starts = Vec::with_capacity(src.len() / 32 + 1);
        starts.push(0);
        starts.extend(
            src.bytes()
                .enumerate()
                .filter(|&(_, c)| c == b'\n')
                .map(|(i, _)| i + 1),
        );
        Lines {
            file,
            starts,
            hint: Cell::new(0),
        }
    }

    /// 1-based line and column of `offset`.
    pub(crate) fn line_col(&self, offset: usize) -> (u32, u32) {
        let starts = &self.starts;
        let in_line =
            |l: usize| starts[l] <= offset && starts.get(l + 1).is_none_or(|&n| offset < n);
        let hint = self.hint.get();
        // `line` is 1-based: the number of line starts at or before `offset`.
        let line = if hint < starts.len() && in_line(hint) {
            hint + 1
        } else if hint + 1 < starts.len() && in_line(hint + 1) {
            hint + 2
        } else {
            starts.partition_point(|&s| s <= offset)
        };
        self.hint.set(line.saturating_sub(1));
        let start = starts[line.saturating_sub(1)];
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        (clamp(line), clamp(offset - start + 1))
    }

    /// The `file:line:col` location of `offset`.
    pub(crate) fn loc(&self, ctx: &mut Context, offset: usize) -> Location {
        let (line, col) = self.line_col(offset);
        ctx.intern_loc(LocData::FileLineCol {
            file: self.file,
            line,
            col,
        })
    }

    /// `offset` as an [`At`] (a location at once only past `u32::MAX`).
    pub(crate) fn at(&self, ctx: &mut Context, offset: usize) -> At {
        match u32::try_from(offset) {
            Ok(o) => At::Offset(o),
            Err(_) => At::Loc(self.loc(ctx, offset)),
        }
    }

    /// The location of `at`.
    pub(crate) fn resolve(&self, ctx: &mut Context, at: At) -> Location {
        match at {
            At::Offset(o) => self.loc(ctx, o as usize),
            At::Loc(l) => l,
        }
    }

    /// The file's name, as locations carry it.
    pub(crate) fn file(&self) -> Ident {
        self.file
    }
}
