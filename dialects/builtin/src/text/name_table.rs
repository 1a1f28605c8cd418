//! The table from SSA names to what the parser knows of them, for one isolated-from-above scope.
//!
//! A name with a number in it (`%12`, `%v12`, `%arg0`, `%w12a`: what printers and generators
//! write) is kept in a vector per template (the name around its first number), indexed by the
//! number: defining and using such names touches memory in the order of their numbers rather
//! than a random hash bucket per name, which on a million-name kernel missed the cache on nearly
//! every use. Other names, and numbers far past those seen (so that `%v4000000000` cannot grow
//! a vector), go to a hash table.

use crate::fast_hash::FastMap;

/// Numbers a prefix's vector may grow by at once.
const SLACK: usize = 1024;

/// Vector entries held per name set, at most (beyond [`SLACK`]).
const SLOTS_PER_NAME: usize = 4;

/// Numbered names sharing one template.
struct Numbered<T> {
    slots: Vec<Option<T>>,
    /// Numbers from this one on may be in `hashed` although their slot is empty: they were set
    /// before the vector reached them.
    hashed_from: u32,
}

pub(crate) struct NameTable<'a, T> {
    hashed: FastMap<&'a str, T>,
    /// By template: the text before and after the number.
    numbered: FastMap<(&'a str, &'a str), Numbered<T>>,
    /// Names set (bounds the vectors' total length).
    sets: usize,
    /// Entries of all vectors.
    held: usize,
}

impl<T> Default for NameTable<'_, T> {
    fn default() -> Self {
        NameTable {
            hashed: FastMap::default(),
            numbered: FastMap::default(),
            sets: 0,
            held: 0,
        }
    }
}

/// `%w12a` as ((`%w`, `a`), 12): the name's first run of digits, when it is a canonical
/// decimal (no leading zero, so that `%v012` stays apart from `%v12`) of at most 9 digits.
/// The runs being maximal, each name has one template and number, and no two names share both.
fn split(name: &str) -> Option<((&str, &str), u32)> {
    let b = name.as_bytes();
    let start = b.iter().position(u8::is_ascii_digit)?;
    let len = b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
    if len > 9 || (len > 1 && b[start] == b'0') {
        return None;
    }
    let end = start + len;
    let n = name[start..end].parse().ok()?;
    Some(((&name[..start], &name[end..]), n))
}

impl<'a, T: Copy> NameTable<'a, T> {
    pub(crate) fn get(&self, name: &str) -> Option<T> {
        let Some((template, n)) = split(name) else {
            return self.hashed.get(name).copied();
        };
        let nb = self.numbered.get(&template)?;
        if let Some(Some(v)) = nb.slots.get(n as usize) {
            return Some(*v);
        }
        if n >= nb.hashed_from {
            return self.hashed.get(name).copied();
        }
        None
    }

    /// Sets `name` (adding it, or replacing what it had).
    pub(crate) fn set(&mut self, name: &'a str, value: T) {
        self.sets += 1;
        let Some((template, n)) = split(name) else {
            self.hashed.insert(name, value);
            return;
        };
        let nb = self.numbered.entry(template).or_insert(Numbered {
            slots: Vec::new(),
            hashed_from: u32::MAX,
        });
        let i = n as usize;
        let len = nb.slots.len();
        if i >= len {
            let grow = i + 1 - len;
            if grow > SLACK || self.held + grow > SLOTS_PER_NAME * self.sets + SLACK {
                nb.hashed_from = nb.hashed_from.min(n);
                self.hashed.insert(name, value);
                return;
            }
            nb.slots.resize_with(i + 1, || None);
            self.held += grow;
        }
        if nb.slots[i].is_none() && n >= nb.hashed_from {
            if let Some(v) = self.hashed.get_mut(name) {
                *v = value;
                return;
            }
        }
        nb.slots[i] = Some(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    #[test]
    fn numbers_split_off_only_in_canonical_form() {
        assert_eq!(split("%v12"), Some((("%v", ""), 12)));
        assert_eq!(split("%0"), Some((("%", ""), 0)));
        assert_eq!(split("%arg0"), Some((("%arg", ""), 0)));
        assert_eq!(split("%w3a"), Some((("%w", "a"), 3)));
        assert_eq!(split("%a12_3"), Some((("%a", "_3"), 12)));
        assert_eq!(split("%v012"), None);
        assert_eq!(split("%x"), None);
        assert_eq!(split("%v1234567890"), None);
    }

    proptest! {
        #[test]
        fn the_table_behaves_as_a_hash_map(
            ops in proptest::collection::vec(
                (0usize..8, 0u32..3000, any::<bool>(), any::<u16>()), 0..300)
        ) {
            // Prefixes, numbers (far ones past the slack, leading zeros, none), gets and sets.
            let names: Vec<String> = ops
                .iter()
                .map(|&(p, n, _, _)| match p {
                    0 => format!("%{n}"),
                    1 => format!("%v{n}"),
                    2 => format!("%v0{n}"),
                    3 => format!("%x{}", n * 1_000_000 % 1_000_000_007),
                    4 => format!("%k{}", n % 7),
                    5 => format!("%n{n}a"),
                    6 => format!("%a{}_{}", n % 30, n / 30),
                    _ => format!("%a{}", n % 30),
                })
                .collect();
            let mut t = NameTable::default();
            let mut model = HashMap::new();
            for (name, &(_, _, is_set, v)) in names.iter().zip(&ops) {
                if is_set {
                    t.set(name.as_str(), v);
                    model.insert(name.as_str(), v);
                }
                prop_assert_eq!(t.get(name), model.get(name.as_str()).copied());
            }
            for name in &names {
                prop_assert_eq!(t.get(name), model.get(name.as_str()).copied());
            }
            prop_assert!(t.held <= SLOTS_PER_NAME * t.sets + SLACK);
        }
    }
}
