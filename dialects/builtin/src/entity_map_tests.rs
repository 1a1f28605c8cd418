use super::*;
use proptest::prelude::*;
use std::collections::HashMap;

#[derive(Clone, Debug)]
enum Step {
    Insert(usize, i32),
    Remove(usize),
    AddOne(usize),
    Clear,
}

fn step() -> impl Strategy<Value = Step> {
    // Keys up to 300: several growths, and keys far past the end of a small map.
    prop_oneof![
        4 => (0..300usize, any::<i32>()).prop_map(|(k, v)| Step::Insert(k, v)),
        2 => (0..300usize).prop_map(Step::Remove),
        2 => (0..300usize).prop_map(Step::AddOne),
        1 => Just(Step::Clear),
    ]
}

proptest! {
    /// Against a HashMap whose absent keys read as the default (-7): every read after each step
    /// agrees, writes return the previous value, and iteration gives every written key with its
    /// value and the default for the rest, in index order.
    #[test]
    fn agrees_with_a_hash_map(steps in prop::collection::vec(step(), 0..200)) {
        const DEFAULT: i32 = -7;
        let mut m: EntityMap<OpId, i32> = EntityMap::with_default(DEFAULT);
        let mut want: HashMap<usize, i32> = HashMap::new();
        let read = |w: &HashMap<usize, i32>, k: usize| *w.get(&k).unwrap_or(&DEFAULT);
        for s in steps {
            match s {
                Step::Insert(k, v) => {
                    let old = m.insert(OpId::from_index(k), v);
                    prop_assert_eq!(old, read(&want, k));
                    want.insert(k, v);
                }
                Step::Remove(k) => {
                    let old = m.remove(OpId::from_index(k));
                    prop_assert_eq!(old, read(&want, k));
                    want.remove(&k);
                }
                Step::AddOne(k) => {
                    m[OpId::from_index(k)] += 1;
                    let v = read(&want, k) + 1;
                    want.insert(k, v);
                }
                Step::Clear => {
                    m.clear();
                    want.clear();
                }
            }
            for k in 0..320 {
                prop_assert_eq!(m[OpId::from_index(k)], read(&want, k));
            }
            prop_assert!(want.keys().all(|&k| k < m.slots()));
            let mut i = 0;
            for (k, &v) in m.iter() {
                prop_assert_eq!(k.index(), i);
                prop_assert_eq!(v, read(&want, i));
                i += 1;
            }
            prop_assert_eq!(i, m.slots());
        }
    }
}

/// A map of non-`Copy` values keyed by another handle kind: `get_mut` grows, `remove` gives
/// the value back and leaves the default.
#[test]
fn holds_owned_values() {
    let mut m: EntityMap<Ident, Vec<u8>> = EntityMap::new();
    let k = Ident::from_index(1000);
    assert!(m.get(k).is_empty());
    assert_eq!(m.slots(), 0);
    m.get_mut(k).push(3);
    m[k].push(4);
    assert_eq!(m[k], [3, 4]);
    assert!(m.slots() > 1000);
    assert_eq!(m.remove(k), [3, 4]);
    assert!(m[k].is_empty());
    assert!(m.default_value().is_empty());
}
