use super::*;
use crate::entity::{OpId, Value};
use proptest::prelude::*;
use std::collections::BTreeSet;

#[derive(Clone, Debug)]
enum Step {
    Insert(usize),
    Remove(usize),
    Clear,
}

fn step() -> impl Strategy<Value = Step> {
    // Keys up to 700: several words, growth by far jumps, and word boundaries (63, 64, 127...).
    prop_oneof![
        5 => (0..700usize).prop_map(Step::Insert),
        3 => (0..700usize).prop_map(Step::Remove),
        1 => Just(Step::Clear),
    ]
}

proptest! {
    /// Against a HashSet (a BTreeSet, for its order): inserts and removes report the same
    /// change, and after each step membership, the length and the keys in order agree.
    #[test]
    fn agrees_with_a_hash_set(steps in prop::collection::vec(step(), 0..300)) {
        let mut s: EntitySet<OpId> = EntitySet::new();
        let mut want: BTreeSet<usize> = BTreeSet::new();
        for st in steps {
            match st {
                Step::Insert(k) => prop_assert_eq!(s.insert(OpId::from_index(k)), want.insert(k)),
                Step::Remove(k) => prop_assert_eq!(s.remove(OpId::from_index(k)), want.remove(&k)),
                Step::Clear => {
                    s.clear();
                    want.clear();
                }
            }
            for k in 0..720 {
                prop_assert_eq!(s.contains(OpId::from_index(k)), want.contains(&k));
            }
            prop_assert_eq!(s.len(), want.len());
            prop_assert_eq!(s.is_empty(), want.is_empty());
            let keys: Vec<usize> = s.iter().map(|k| k.index()).collect();
            let want_keys: Vec<usize> = want.iter().copied().collect();
            prop_assert_eq!(keys, want_keys);
        }
    }
}

/// Collected from an iterator, duplicates counted once; keys past the end are absent and
/// removing them changes nothing.
#[test]
fn collects_and_ignores_keys_past_the_end() {
    let s: EntitySet<Value> = [5, 64, 5, 63, 200]
        .map(Value::from_index)
        .into_iter()
        .collect();
    assert_eq!(s.len(), 4);
    let keys: Vec<usize> = s.iter().map(|v| v.index()).collect();
    assert_eq!(keys, [5, 63, 64, 200]);
    let mut s = s;
    assert!(!s.contains(Value::from_index(100_000)));
    assert!(!s.remove(Value::from_index(100_000)));
    assert_eq!(s.len(), 4);
}
