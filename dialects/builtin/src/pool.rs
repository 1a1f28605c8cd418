//! Lists of many entities stored in one vector (Cranelift's `ListPool`): an op's operands,
//! results, attributes, a region's blocks and a value's uses live in pools of the
//! [`crate::Context`], each entity holding a [`List`] (start, length) into one. A walk over ops
//! then reads a few contiguous vectors in creation order instead of a heap allocation per op,
//! and creating an op allocates nothing in the common case.
//!
//! A list of length `n` occupies a block of `n.next_power_of_two()` slots: pushing past that
//! moves the list to a block of the next size, and removing down to a power of two moves it to
//! the smaller block, so a block's size always follows from the list's length. Freed blocks go
//! on a free list per size and are reused before the pool grows.

/// A list in a [`ListPool`]: `len` items from slot `start`. The empty list owns no block.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct List {
    start: u32,
    len: u32,
}

impl List {
    pub(crate) const EMPTY: List = List { start: 0, len: 0 };

    pub(crate) fn len(self) -> usize {
        self.len as usize
    }

    pub(crate) fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// The size class of a non-empty list's block: `log2` of its slot count.
fn class(len: usize) -> usize {
    debug_assert!(len > 0);
    len.next_power_of_two().trailing_zeros() as usize
}

fn index(i: usize) -> u32 {
    u32::try_from(i).expect("list pool overflow: more than u32::MAX slots")
}

/// Blocks of `T` slots, with free blocks kept per size class.
#[derive(Clone, Debug)]
pub(crate) struct ListPool<T> {
    data: Vec<T>,
    free: Vec<Vec<u32>>,
}

impl<T> Default for ListPool<T> {
    fn default() -> Self {
        ListPool {
            data: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl<T: Copy> ListPool<T> {
    /// A free block of size class `class`: a reused one, or new slots (set to `fill`) at the end.
    fn alloc(&mut self, class: usize, fill: T) -> u32 {
        if let Some(start) = self.free.get_mut(class).and_then(|f| f.pop()) {
            return start;
        }
        let start = self.data.len();
        self.data.resize(start + (1 << class), fill);
        index(start)
    }

    /// Returns the block of a list of length `len` starting at `start` to its free list.
    fn release(&mut self, start: u32, len: usize) {
        if len == 0 {
            return;
        }
        let c = class(len);
        if self.free.len() <= c {
            self.free.resize_with(c + 1, Vec::new);
        }
        self.free[c].push(start);
    }

    /// Moves the `keep` first items of a list from a block for `old_len` to one for `new_len`.
    fn realloc(&mut self, start: u32, old_len: usize, new_len: usize, keep: usize) -> u32 {
        let from = start as usize;
        let to = self.alloc(class(new_len), self.data[from]);
        self.data.copy_within(from..from + keep, to as usize);
        self.release(start, old_len);
        to
    }

    #[inline]
    pub(crate) fn get(&self, list: List) -> &[T] {
        &self.data[list.start as usize..][..list.len()]
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, list: List) -> &mut [T] {
        &mut self.data[list.start as usize..][..list.len()]
    }

    /// A new list holding `items`.
    pub(crate) fn new_list(&mut self, items: &[T]) -> List {
        if items.is_empty() {
            return List::EMPTY;
        }
        let start = self.alloc(class(items.len()), items[0]);
        self.data[start as usize..][..items.len()].copy_from_slice(items);
        List {
            start,
            len: index(items.len()),
        }
    }

    /// Appends `item` to `list`.
    pub(crate) fn push(&mut self, list: &mut List, item: T) {
        let len = list.len();
        if len == 0 {
            list.start = self.alloc(0, item);
        } else if len.is_power_of_two() {
            // The block is full.
            list.start = self.realloc(list.start, len, len + 1, len);
        }
        self.data[list.start as usize + len] = item;
        list.len = index(len + 1);
    }

    /// Removes item `i`, moving the last item into its slot; returns the removed item.
    pub(crate) fn swap_remove(&mut self, list: &mut List, i: usize) -> T {
        let len = list.len();
        assert!(i < len, "swap_remove index {i} out of a list of {len}");
        let s = list.start as usize;
        let item = self.data[s + i];
        self.data[s + i] = self.data[s + len - 1];
        self.truncate(list, len - 1);
        item
    }

    /// Removes item `i`, shifting the later items down; returns the removed item.
    pub(crate) fn remove(&mut self, list: &mut List, i: usize) -> T {
        let len = list.len();
        assert!(i < len, "remove index {i} out of a list of {len}");
        let s = list.start as usize;
        let item = self.data[s + i];
        self.data.copy_within(s + i + 1..s + len, s + i);
        self.truncate(list, len - 1);
        item
    }

    /// Shortens `list` to `new_len` items (at most its length), freeing or shrinking its block.
    pub(crate) fn truncate(&mut self, list: &mut List, new_len: usize) {
        let len = list.len();
        if new_len >= len {
            return;
        }
        if new_len == 0 {
            self.release(list.start, len);
            *list = List::EMPTY;
            return;
        }
        if class(new_len) < class(len) {
            list.start = self.realloc(list.start, len, new_len, new_len);
        }
        list.len = index(new_len);
    }

    /// Empties `list`, freeing its block.
    pub(crate) fn clear(&mut self, list: &mut List) {
        self.truncate(list, 0);
    }

    /// Makes `list` hold `items` (its old block is freed or reused).
    pub(crate) fn set(&mut self, list: &mut List, items: &[T]) {
        if class_or_none(list.len()) == class_or_none(items.len()) {
            if !items.is_empty() {
                self.data[list.start as usize..][..items.len()].copy_from_slice(items);
            }
            list.len = index(items.len());
            return;
        }
        self.clear(list);
        *list = self.new_list(items);
    }

    /// Slots in use or free (for tests).
    #[cfg(test)]
    pub(crate) fn slots(&self) -> usize {
        self.data.len()
    }
}

fn class_or_none(len: usize) -> Option<usize> {
    (len > 0).then(|| class(len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(p: &ListPool<u32>, l: List) -> Vec<u32> {
        p.get(l).to_vec()
    }

    #[test]
    fn push_grows_through_size_classes_and_keeps_items() {
        let mut p = ListPool::<u32>::default();
        let mut a = List::EMPTY;
        let mut b = List::EMPTY;
        for i in 0..40 {
            p.push(&mut a, i);
            p.push(&mut b, 100 + i);
        }
        assert_eq!(items(&p, a), (0..40).collect::<Vec<_>>());
        assert_eq!(items(&p, b), (100..140).collect::<Vec<_>>());
    }

    #[test]
    fn freed_blocks_are_reused() {
        let mut p = ListPool::<u32>::default();
        let mut a = p.new_list(&[1, 2, 3]);
        let before = p.slots();
        p.clear(&mut a);
        let b = p.new_list(&[4, 5, 6, 7]);
        assert_eq!(p.slots(), before, "a block of 4 was free");
        assert_eq!(items(&p, b), [4, 5, 6, 7]);
        // Growing and shrinking around a size boundary does not grow the pool without end.
        let mut c = p.new_list(&[1, 2, 3, 4]);
        p.push(&mut c, 5);
        p.swap_remove(&mut c, 0);
        let settled = p.slots();
        for _ in 0..100 {
            p.push(&mut c, 9);
            p.swap_remove(&mut c, 0);
        }
        assert_eq!(p.slots(), settled);
        assert_eq!(c.len(), 4);
    }

    #[test]
    fn removal_keeps_the_rest() {
        let mut p = ListPool::<u32>::default();
        let mut a = p.new_list(&[0, 1, 2, 3, 4, 5]);
        assert_eq!(p.swap_remove(&mut a, 1), 1);
        assert_eq!(items(&p, a), [0, 5, 2, 3, 4]);
        assert_eq!(p.remove(&mut a, 0), 0);
        assert_eq!(items(&p, a), [5, 2, 3, 4]);
        assert_eq!(p.remove(&mut a, 3), 4);
        assert_eq!(items(&p, a), [5, 2, 3]);
        p.set(&mut a, &[7, 8, 9, 10, 11]);
        assert_eq!(items(&p, a), [7, 8, 9, 10, 11]);
        p.set(&mut a, &[1]);
        assert_eq!(items(&p, a), [1]);
        p.swap_remove(&mut a, 0);
        assert!(a.is_empty());
    }
}
