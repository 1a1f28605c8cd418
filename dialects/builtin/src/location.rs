//! Interned source locations, as MLIR's: file:line:col, named, fused, call-site, unknown.

use crate::entity::{Attribute, Ident, Location};
use crate::fast_hash::FastMap;
use crate::intern::{Intern, InternTable};

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

/// Interned locations. Parsing interns the `file:line:col` of every op (and dialect hooks that
/// of tokens they may report errors at), in line order: a table hashed over all of them missed the
/// cache on almost every op of a large file, and regrew as it filled. Instead each file keeps a
/// vector indexed by line, heading a short chain of the locations on that line; the locations
/// of one line are interned close together, so finding one touches memory just used. Other
/// locations (past [`MAX_CHAIN`] on a line, on a line far past those seen, fused, named,
/// call-site, unknown) go to a hash table.
#[derive(Default)]
pub(crate) struct LocTable {
    data: Vec<LocData>,
    /// Per location: the next (older) location on its line, or `NONE`.
    next: Vec<u32>,
    hashed: FastMap<LocData, u32>,
    files: Vec<FileLines>,
    file_index: FastMap<Ident, u32>,
    /// The file of the last `file:line:col` interned (almost always the next one's).
    last_file: Option<(Ident, u32)>,
    /// Lines held by all files, bounded by the locations (see [`LocTable::admits`]).
    lines_held: usize,
}

/// The locations interned on each line of one file.
struct FileLines {
    /// Per line: the newest location on it (`NONE` while none) and how many its chain holds.
    lines: Vec<(u32, u32)>,
    /// Lines from this one on may have a location in `hashed` that their chain lacks: they were
    /// interned before `lines` reached them.
    hashed_from: u32,
}

const NONE: u32 = u32::MAX;

/// Locations chained per line at most; more on one line (a long line of ops) are hashed.
const MAX_CHAIN: u32 = 16;

/// Lines a file may add past its last one held: input is read mostly in line order, and this
/// keeps a location at a huge line number (hand-written, or fuzzed) from growing the vector.
const LINE_SLACK: usize = 1024;

/// Lines held per location at most: text with a few lines between ops (comments, closing braces)
/// stays in the vectors.
const LINES_PER_LOC: usize = 8;

impl LocTable {
    fn push(&mut self, data: LocData, next: u32) -> u32 {
        let index =
            u32::try_from(self.data.len()).expect("arena overflow: more than u32::MAX locations");
        self.data.push(data);
        self.next.push(next);
        index
    }

    fn file(&mut self, file: Ident) -> usize {
        if let Some((f, i)) = self.last_file {
            if f == file {
                return i as usize;
            }
        }
        let next = self.files.len() as u32;
        let i = *self.file_index.entry(file).or_insert(next);
        if i == next {
            self.files.push(FileLines {
                lines: Vec::new(),
                hashed_from: NONE,
            });
        }
        self.last_file = Some((file, i));
        i as usize
    }

    /// Whether the lines of a file may grow from `len` to hold `line`: not far past its end, and
    /// all files together hold at most [`LINES_PER_LOC`] lines per location (so that memory
    /// stays in proportion to the locations, whatever line numbers the input has).
    fn admits(&self, len: usize, line: usize) -> bool {
        let grow = line + 1 - len;
        grow <= LINE_SLACK && self.lines_held + grow <= LINES_PER_LOC * self.data.len() + LINE_SLACK
    }

    /// The index of `file:line:col` through its line's chain (added there if new), or None when
    /// it belongs in `hashed`.
    fn intern_line(&mut self, file: Ident, line: u32, col: u32) -> Option<u32> {
        let f = self.file(file);
        let l = line as usize;
        let len = self.files[f].lines.len();
        if l >= len {
            if !self.admits(len, l) {
                let fl = &mut self.files[f];
                fl.hashed_from = fl.hashed_from.min(line);
                return None;
            }
            self.files[f].lines.resize(l + 1, (NONE, 0));
            self.lines_held += l + 1 - len;
        }
        let (head, count) = self.files[f].lines[l];
        let mut i = head;
        for _ in 0..count {
            if matches!(self.data[i as usize], LocData::FileLineCol { col: c, .. } if c == col) {
                return Some(i);
            }
            i = self.next[i as usize];
        }
        if count == MAX_CHAIN {
            return None;
        }
        let data = LocData::FileLineCol { file, line, col };
        if line >= self.files[f].hashed_from {
            if let Some(&i) = self.hashed.get(&data) {
                return Some(i);
            }
        }
        let i = self.push(data, head);
        self.files[f].lines[l] = (i, count + 1);
        Some(i)
    }
}

impl InternTable<LocData> for LocTable {
    fn intern(&mut self, data: LocData) -> usize {
        if let LocData::FileLineCol { file, line, col } = data {
            if let Some(i) = self.intern_line(file, line, col) {
                return i as usize;
            }
        }
        if let Some(&i) = self.hashed.get(&data) {
            return i as usize;
        }
        let i = self.push(data.clone(), NONE);
        self.hashed.insert(data, i);
        i as usize
    }
    fn get(&self, index: usize) -> &LocData {
        &self.data[index]
    }
}

impl Intern for LocData {
    type Table = LocTable;
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn flc(file: u32, line: u32, col: u32) -> LocData {
        LocData::FileLineCol {
            file: Ident(file),
            line,
            col,
        }
    }

    /// Interns `locs` and checks that equal data, and only equal data, share an index, and that
    /// each index reads back its data.
    fn check(locs: &[LocData]) -> LocTable {
        let mut t = LocTable::default();
        let mut model: HashMap<LocData, usize> = HashMap::new();
        for d in locs {
            let i = t.intern(d.clone());
            let next = model.len();
            assert_eq!(i, *model.entry(d.clone()).or_insert(next), "{d:?}");
            assert_eq!(t.get(i), d);
        }
        t
    }

    #[test]
    fn locations_of_a_parse_in_line_order_are_chained_per_line() {
        let mut locs = Vec::new();
        for line in 1..3000 {
            for col in [7, 12, 30] {
                locs.push(flc(0, line, col));
            }
        }
        locs.extend(locs.clone());
        let t = check(&locs);
        assert!(t.hashed.is_empty(), "{} hashed", t.hashed.len());
    }

    #[test]
    fn a_long_line_spills_past_its_chain_to_the_table() {
        let locs: Vec<_> = (0..200).chain(0..200).map(|c| flc(0, 1, c)).collect();
        let t = check(&locs);
        assert_eq!(t.hashed.len(), 200 - MAX_CHAIN as usize);
    }

    #[test]
    fn a_far_line_is_hashed_and_found_once_the_lines_reach_it() {
        let mut locs = vec![flc(0, 5000, 3), flc(0, 5000, 4)];
        locs.extend((1..6000).flat_map(|l| [flc(0, l, 3), flc(0, l, 5)]));
        let t = check(&locs);
        assert_eq!(t.hashed.len(), 2);
        assert!(t.files[0].lines.len() > 5000);
    }

    #[test]
    fn huge_line_numbers_do_not_grow_the_line_vectors() {
        let locs: Vec<_> = (0..2000u32)
            .map(|k| flc(k % 7, k.wrapping_mul(2_654_435_761), 1))
            .collect();
        let t = check(&locs);
        assert!(t.lines_held <= LINES_PER_LOC * t.data.len() + LINE_SLACK);
    }

    #[test]
    fn other_kinds_are_interned_by_value() {
        let a = flc(1, 2, 3);
        let locs = vec![
            LocData::Unknown,
            a.clone(),
            LocData::Name {
                name: Ident(4),
                child: Some(Location(1)),
            },
            LocData::Fused {
                locs: vec![Location(0), Location(1)],
                metadata: None,
            },
            LocData::CallSite {
                callee: Location(1),
                caller: Location(0),
            },
            LocData::Unknown,
            LocData::Fused {
                locs: vec![Location(0), Location(1)],
                metadata: None,
            },
            a,
        ];
        check(&locs);
    }

    proptest! {
        #[test]
        fn interning_matches_a_hash_map(
            ops in proptest::collection::vec((0u32..3, 0u32..40, 0u32..24, 0u32..4), 0..400)
        ) {
            // Lines mostly small, sometimes far (past the slack), in any order.
            let locs: Vec<_> = ops
                .iter()
                .map(|&(f, l, c, far)| flc(f, if far == 0 { l * 100 } else { l }, c))
                .collect();
            check(&locs);
        }
    }
}
