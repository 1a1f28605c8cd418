//! Creating, reading and mutating ops, blocks, regions and values. Every mutation keeps use lists
//! and block op lists consistent; insert, erase and move of an op are O(1) (plus its operands).

use crate::builder::OperationState;
use crate::context::{
    set_sorted, BlockData, Context, OpData, OpLinks, Operand, RegionData, Use, ValueData, ValueDef,
};
use crate::entity::*;
use crate::pool::List;
use crate::prefetch::prefetch;
use crate::registry::{OpInfo, OpTraits};

impl Context {
    // ----- creation ---------------------------------------------------------------------------

    /// Creates a detached op from `state`. Regions in the state must be detached.
    pub fn create_op(&mut self, state: OperationState) -> OpId {
        let op = OpId::from_index(self.ops.len());
        let OperationState {
            name,
            loc,
            operands,
            result_types,
            properties,
            attributes,
            regions,
            successors,
        } = state;
        let name = self.op_name(&name);
        // An op's results are consecutive values.
        let first = self.values.len();
        for (i, &ty) in result_types.iter().enumerate() {
            self.new_value(
                ty,
                ValueDef::OpResult {
                    op,
                    index: i as u32,
                },
                None,
            );
        }
        let result_ids: Vec<Value> = (first..self.values.len()).map(Value::from_index).collect();
        let results = self.value_pool.new_list(&result_ids);
        let properties = self.sorted_attr_list(properties);
        let attributes = self.sorted_attr_list(attributes);
        // Each operand's slot in its value's use list is known before the op's list is made.
        let operand_slots: Vec<Operand> = operands
            .iter()
            .enumerate()
            .map(|(i, &v)| Operand {
                value: v,
                use_pos: self.add_use(
                    v,
                    Use {
                        op,
                        index: i as u32,
                    },
                ),
            })
            .collect();
        let operands = self.operand_pool.new_list(&operand_slots);
        let successors = self.block_pool.new_list(&successors);
        let region_list = self.region_pool.new_list(&regions);
        self.push_op_flags(!regions.is_empty(), properties, attributes);
        self.ops.push(OpData {
            name,
            operands,
            results,
            successors,
            regions: region_list,
            properties,
            attributes,
            loc,
            parent: None,
            alive: true,
        });
        self.links.push(OpLinks::DETACHED);
        if self.op_counts.len() <= name.index() {
            self.op_counts.resize(name.index() + 1, 0);
        }
        self.op_counts[name.index()] += 1;
        for r in regions {
            debug_assert!(
                self.regions[r.index()].parent.is_none(),
                "region already attached"
            );
            self.regions[r.index()].parent = Some(op);
        }
        op
    }

    fn new_value(&mut self, ty: Type, def: ValueDef, loc: Option<Location>) -> Value {
        let v = Value::from_index(self.values.len());
        self.values.push(ValueData {
            ty,
            def,
            uses: List::EMPTY,
            loc,
        });
        v
    }

    /// A list in the attribute pool of `entries`, sorted by name (a later duplicate wins).
    fn sorted_attr_list(&mut self, entries: Vec<(Ident, Attribute)>) -> List {
        if entries.is_empty() {
            return List::EMPTY;
        }
        let mut sorted = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            set_sorted(self, &mut sorted, k, v);
        }
        self.attr_pool.new_list(&sorted)
    }

    /// Appends `u` to `v`'s use list; returns its position there.
    fn add_use(&mut self, v: Value, u: Use) -> u32 {
        let uses = &mut self.values[v.index()].uses;
        let pos = uses.len() as u32;
        self.use_pool.push(uses, u);
        pos
    }

    /// Creates a detached, empty region.
    pub fn create_region(&mut self) -> RegionId {
        let r = RegionId::from_index(self.regions.len());
        self.regions.push(RegionData::default());
        r
    }

    /// Creates a detached block with arguments of the given types and locations.
    pub fn create_block(&mut self, args: &[(Type, Location)]) -> BlockId {
        let b = BlockId::from_index(self.blocks.len());
        self.blocks.push(BlockData::default());
        for &(ty, loc) in args {
            self.add_block_arg(b, ty, loc);
        }
        b
    }

    pub fn add_block_arg(&mut self, block: BlockId, ty: Type, loc: Location) -> Value {
        let index = self.blocks[block.index()].args.len() as u32;
        let v = self.new_value(ty, ValueDef::BlockArg { block, index }, Some(loc));
        self.blocks[block.index()].args.push(v);
        v
    }

    /// Removes block argument `index`; it must have no uses.
    pub fn erase_block_arg(&mut self, block: BlockId, index: usize) {
        let v = self.blocks[block.index()].args.remove(index);
        debug_assert!(
            self.values[v.index()].uses.is_empty(),
            "erasing a used block argument"
        );
        for (i, &a) in self.blocks[block.index()]
            .args
            .iter()
            .enumerate()
            .skip(index)
        {
            self.values[a.index()].def = ValueDef::BlockArg {
                block,
                index: i as u32,
            };
        }
    }

    /// Appends a detached block to a region.
    pub fn append_block(&mut self, region: RegionId, block: BlockId) {
        debug_assert!(self.blocks[block.index()].parent.is_none());
        self.blocks[block.index()].parent = Some(region);
        let list = &mut self.regions[region.index()].blocks;
        self.block_pool.push(list, block);
    }

    /// Empties a region's block list (the blocks keep their parent link); returns the blocks.
    pub(crate) fn take_region_block_vec(&mut self, region: RegionId) -> Vec<BlockId> {
        let mut list = std::mem::take(&mut self.regions[region.index()].blocks);
        let blocks = self.block_pool.get(list).to_vec();
        self.block_pool.clear(&mut list);
        blocks
    }

    /// Sets a region's block list (parent links are the caller's).
    pub(crate) fn set_region_block_list(&mut self, region: RegionId, blocks: &[BlockId]) {
        let list = &mut self.regions[region.index()].blocks;
        self.block_pool.set(list, blocks);
    }

    /// A region with one block (with the given arguments); returns both.
    pub fn create_region_with_block(&mut self, args: &[(Type, Location)]) -> (RegionId, BlockId) {
        let r = self.create_region();
        let b = self.create_block(args);
        self.append_block(r, b);
        (r, b)
    }

    // ----- op accessors -----------------------------------------------------------------------

    /// Number of op slots ever created (erased ones included): an upper bound for dense maps.
    pub fn num_op_slots(&self) -> usize {
        self.ops.len()
    }
    /// Every live op (attached or detached), in index order. Reading the op records one after
    /// another lets the loads overlap, where a walk down the nest waits for each op's record to
    /// find the next one (on million-op kernels, a cache miss each).
    pub fn live_ops(&self) -> impl Iterator<Item = OpId> + '_ {
        (self.ops.iter().enumerate())
            .filter(|(_, d)| d.alive)
            .map(|(i, _)| OpId::from_index(i))
    }
    pub fn num_value_slots(&self) -> usize {
        self.values.len()
    }
    /// Number of block slots ever created: an upper bound for dense maps keyed by block.
    pub fn num_block_slots(&self) -> usize {
        self.blocks.len()
    }
    /// Number of region slots ever created: an upper bound for dense maps keyed by region.
    pub fn num_region_slots(&self) -> usize {
        self.regions.len()
    }
    #[inline]
    pub fn is_alive(&self, op: OpId) -> bool {
        self.ops[op.index()].alive
    }
    #[inline]
    pub fn op_name_of(&self, op: OpId) -> OpName {
        self.ops[op.index()].name
    }
    /// The op's full name, `dialect.op`.
    pub fn name(&self, op: OpId) -> &str {
        self.op_name_str(self.ops[op.index()].name)
    }
    /// The op's dialect namespace (the part before the first dot).
    pub fn dialect_of(&self, op: OpId) -> &str {
        let n = self.name(op);
        n.split_once('.').map(|(d, _)| d).unwrap_or("")
    }
    #[inline]
    pub fn info(&self, op: OpId) -> Option<&OpInfo> {
        self.op_name_info(self.ops[op.index()].name)
    }
    #[inline]
    pub fn is_registered(&self, op: OpId) -> bool {
        self.info(op).is_some()
    }
    /// Whether the op is registered with trait `t` (unregistered ops have no traits).
    #[inline]
    pub fn has_trait(&self, op: OpId, t: OpTraits) -> bool {
        self.info(op).is_some_and(|i| i.traits.contains(t))
    }
    #[inline]
    pub fn num_operands(&self, op: OpId) -> usize {
        self.ops[op.index()].operands.len()
    }
    #[inline]
    fn operand_slots(&self, op: OpId) -> &[Operand] {
        self.operand_pool.get(self.ops[op.index()].operands)
    }
    #[inline]
    pub fn operand(&self, op: OpId, i: usize) -> Value {
        self.operand_slots(op)[i].value
    }
    #[inline]
    pub fn operands(&self, op: OpId) -> impl ExactSizeIterator<Item = Value> + '_ {
        self.operand_slots(op).iter().map(|o| o.value)
    }
    pub fn operand_vec(&self, op: OpId) -> Vec<Value> {
        self.operands(op).collect()
    }
    #[inline]
    pub fn results(&self, op: OpId) -> &[Value] {
        self.value_pool.get(self.ops[op.index()].results)
    }
    #[inline]
    pub fn result(&self, op: OpId, i: usize) -> Value {
        self.results(op)[i]
    }
    #[inline]
    pub fn num_results(&self, op: OpId) -> usize {
        self.ops[op.index()].results.len()
    }
    #[inline]
    pub fn regions(&self, op: OpId) -> &[RegionId] {
        self.region_pool.get(self.ops[op.index()].regions)
    }
    #[inline]
    pub fn region(&self, op: OpId, i: usize) -> RegionId {
        self.regions(op)[i]
    }
    #[inline]
    pub fn successors(&self, op: OpId) -> &[BlockId] {
        self.block_pool.get(self.ops[op.index()].successors)
    }
    pub fn set_successor(&mut self, op: OpId, i: usize, block: BlockId) {
        self.block_pool.get_mut(self.ops[op.index()].successors)[i] = block;
    }
    pub fn loc(&self, op: OpId) -> Location {
        self.ops[op.index()].loc
    }
    pub fn set_loc(&mut self, op: OpId, loc: Location) {
        self.ops[op.index()].loc = loc;
    }

    /// Inherent attributes (properties), sorted by name.
    pub fn properties(&self, op: OpId) -> &[(Ident, Attribute)] {
        self.attr_pool.get(self.ops[op.index()].properties)
    }
    pub fn prop(&self, op: OpId, name: &str) -> Option<Attribute> {
        let list = self.properties(op);
        if list.is_empty() {
            return None;
        }
        let id = self.lookup_ident(name)?;
        list.iter().find(|(k, _)| *k == id).map(|(_, v)| *v)
    }
    pub fn set_prop(&mut self, op: OpId, name: &str, value: Attribute) {
        let key = self.ident(name);
        let mut list = self.ops[op.index()].properties;
        self.set_in_attr_list(&mut list, key, value);
        self.ops[op.index()].properties = list;
        self.update_symbol_ref_flag(op);
    }
    pub fn remove_prop(&mut self, op: OpId, name: &str) -> Option<Attribute> {
        let id = self.lookup_ident(name)?;
        let mut list = self.ops[op.index()].properties;
        let removed = self.remove_from_attr_list(&mut list, id);
        self.ops[op.index()].properties = list;
        self.update_symbol_ref_flag(op);
        removed
    }

    /// Discardable attributes, sorted by name.
    pub fn attrs(&self, op: OpId) -> &[(Ident, Attribute)] {
        self.attr_pool.get(self.ops[op.index()].attributes)
    }
    pub fn attr(&self, op: OpId, name: &str) -> Option<Attribute> {
        let list = self.attrs(op);
        if list.is_empty() {
            return None;
        }
        let id = self.lookup_ident(name)?;
        list.iter().find(|(k, _)| *k == id).map(|(_, v)| *v)
    }
    pub fn set_attr(&mut self, op: OpId, name: &str, value: Attribute) {
        let key = self.ident(name);
        let mut list = self.ops[op.index()].attributes;
        self.set_in_attr_list(&mut list, key, value);
        self.ops[op.index()].attributes = list;
        self.update_symbol_ref_flag(op);
    }
    pub fn remove_attr(&mut self, op: OpId, name: &str) -> Option<Attribute> {
        let id = self.lookup_ident(name)?;
        let mut list = self.ops[op.index()].attributes;
        let removed = self.remove_from_attr_list(&mut list, id);
        self.ops[op.index()].attributes = list;
        self.update_symbol_ref_flag(op);
        removed
    }

    /// Inserts or replaces `(key, value)` in a sorted list of the attribute pool.
    fn set_in_attr_list(&mut self, list: &mut List, key: Ident, value: Attribute) {
        if let Some(slot) = self
            .attr_pool
            .get_mut(*list)
            .iter_mut()
            .find(|(k, _)| *k == key)
        {
            slot.1 = value;
            return;
        }
        let mut entries = self.attr_pool.get(*list).to_vec();
        set_sorted(self, &mut entries, key, value);
        self.attr_pool.set(list, &entries);
    }

    fn remove_from_attr_list(&mut self, list: &mut List, key: Ident) -> Option<Attribute> {
        let pos = self
            .attr_pool
            .get(*list)
            .iter()
            .position(|(k, _)| *k == key)?;
        Some(self.attr_pool.remove(list, pos).1)
    }
    /// A property, or else a discardable attribute, of this name.
    pub fn prop_or_attr(&self, op: OpId, name: &str) -> Option<Attribute> {
        self.prop(op, name).or_else(|| self.attr(op, name))
    }

    // ----- structure --------------------------------------------------------------------------

    #[inline]
    pub fn parent_block(&self, op: OpId) -> Option<BlockId> {
        self.ops[op.index()].parent
    }
    pub fn parent_region(&self, op: OpId) -> Option<RegionId> {
        self.parent_block(op)
            .and_then(|b| self.blocks[b.index()].parent)
    }
    /// The op that owns the region that holds this op.
    pub fn parent_op(&self, op: OpId) -> Option<OpId> {
        self.parent_region(op)
            .and_then(|r| self.regions[r.index()].parent)
    }
    #[inline]
    pub fn next_op(&self, op: OpId) -> Option<OpId> {
        self.links[op.index()].next()
    }
    #[inline]
    pub fn prev_op(&self, op: OpId) -> Option<OpId> {
        self.links[op.index()].prev()
    }
    /// Whether `ancestor` is `op` or (transitively) holds it in one of its regions.
    pub fn is_ancestor(&self, ancestor: OpId, op: OpId) -> bool {
        let mut cur = Some(op);
        while let Some(o) = cur {
            if o == ancestor {
                return true;
            }
            cur = self.parent_op(o);
        }
        false
    }

    pub fn block_args(&self, block: BlockId) -> &[Value] {
        &self.blocks[block.index()].args
    }
    pub fn block_arg(&self, block: BlockId, i: usize) -> Value {
        self.blocks[block.index()].args[i]
    }
    #[inline]
    pub fn first_op(&self, block: BlockId) -> Option<OpId> {
        self.blocks[block.index()].first
    }
    #[inline]
    pub fn last_op(&self, block: BlockId) -> Option<OpId> {
        self.blocks[block.index()].last
    }
    pub fn block_len(&self, block: BlockId) -> usize {
        self.blocks[block.index()].len as usize
    }
    pub fn block_is_empty(&self, block: BlockId) -> bool {
        self.blocks[block.index()].first.is_none()
    }
    /// The ops of a block, in order.
    #[inline]
    pub fn block_ops(&self, block: BlockId) -> BlockOps<'_> {
        let first = self.blocks[block.index()].first;
        let mut ahead = first;
        for _ in 0..PREFETCH_DISTANCE {
            let Some(a) = ahead else { break };
            prefetch(&self.ops[a.index()]);
            ahead = self.links[a.index()].next();
        }
        BlockOps {
            ctx: self,
            next: first,
            ahead,
        }
    }
    /// The ops of a block collected, for iteration while mutating.
    pub fn block_op_vec(&self, block: BlockId) -> Vec<OpId> {
        self.block_ops(block).collect()
    }
    pub fn block_parent_region(&self, block: BlockId) -> Option<RegionId> {
        self.blocks[block.index()].parent
    }
    pub fn block_parent_op(&self, block: BlockId) -> Option<OpId> {
        self.block_parent_region(block)
            .and_then(|r| self.regions[r.index()].parent)
    }
    #[inline]
    pub fn region_blocks(&self, region: RegionId) -> &[BlockId] {
        self.block_pool.get(self.regions[region.index()].blocks)
    }
    #[inline]
    pub fn entry_block(&self, region: RegionId) -> Option<BlockId> {
        self.region_blocks(region).first().copied()
    }
    /// The entry block of `op`'s region `index`: None when `op` has no such region or the
    /// region is empty.
    pub fn region_entry_block(&self, op: OpId, index: usize) -> Option<BlockId> {
        let &r = self.regions(op).get(index)?;
        self.entry_block(r)
    }
    pub fn region_parent_op(&self, region: RegionId) -> Option<OpId> {
        self.regions[region.index()].parent
    }
    /// Index of the region within its parent op.
    pub fn region_index(&self, region: RegionId) -> Option<usize> {
        let p = self.region_parent_op(region)?;
        self.regions(p).iter().position(|&r| r == region)
    }

    // ----- values -----------------------------------------------------------------------------

    #[inline]
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v.index()].ty
    }
    pub fn set_value_type(&mut self, v: Value, ty: Type) {
        self.values[v.index()].ty = ty;
    }
    pub fn value_def(&self, v: Value) -> ValueDef {
        self.values[v.index()].def
    }
    /// The op that defines `v`, when it is an op result.
    #[inline]
    pub fn defining_op(&self, v: Value) -> Option<OpId> {
        match self.values[v.index()].def {
            ValueDef::OpResult { op, .. } => Some(op),
            ValueDef::BlockArg { .. } => None,
        }
    }
    /// The block in which `v` is defined (for a result: the block of its op).
    pub fn value_block(&self, v: Value) -> Option<BlockId> {
        match self.values[v.index()].def {
            ValueDef::OpResult { op, .. } => self.parent_block(op),
            ValueDef::BlockArg { block, .. } => Some(block),
        }
    }
    /// A value's location: its op's for results, its own for block arguments.
    pub fn value_loc(&self, v: Value) -> Location {
        match self.values[v.index()].def {
            ValueDef::OpResult { op, .. } => self.loc(op),
            ValueDef::BlockArg { .. } => self.values[v.index()]
                .loc
                .expect("block argument without loc"),
        }
    }
    #[inline]
    pub fn uses(&self, v: Value) -> &[Use] {
        self.use_pool.get(self.values[v.index()].uses)
    }
    #[inline]
    pub fn has_uses(&self, v: Value) -> bool {
        !self.values[v.index()].uses.is_empty()
    }
    /// The ops that use `v`, in use-list order, with duplicates when an op uses `v` twice.
    #[inline]
    pub fn users(&self, v: Value) -> impl Iterator<Item = OpId> + '_ {
        self.uses(v).iter().map(|u| u.op)
    }

    fn push_operand(&mut self, op: OpId, v: Value) {
        let index = self.ops[op.index()].operands.len() as u32;
        let use_pos = self.add_use(v, Use { op, index });
        let mut list = self.ops[op.index()].operands;
        self.operand_pool
            .push(&mut list, Operand { value: v, use_pos });
        self.ops[op.index()].operands = list;
    }

    fn operand_slot_mut(&mut self, op: OpId, index: usize) -> &mut Operand {
        &mut self.operand_pool.get_mut(self.ops[op.index()].operands)[index]
    }

    /// Removes the use recorded in `op`'s operand slot `index` from its value's use list.
    fn unlink_use(&mut self, op: OpId, index: usize) {
        let Operand { value, use_pos } = self.operand_slots(op)[index];
        let mut uses = self.values[value.index()].uses;
        self.use_pool.swap_remove(&mut uses, use_pos as usize);
        self.values[value.index()].uses = uses;
        if let Some(&moved) = self.use_pool.get(uses).get(use_pos as usize) {
            self.operand_slot_mut(moved.op, moved.index as usize)
                .use_pos = use_pos;
        }
    }

    /// Sets operand `index` of `op` to `v`.
    pub fn set_operand(&mut self, op: OpId, index: usize, v: Value) {
        self.unlink_use(op, index);
        let use_pos = self.add_use(
            v,
            Use {
                op,
                index: index as u32,
            },
        );
        *self.operand_slot_mut(op, index) = Operand { value: v, use_pos };
    }

    /// Replaces the whole operand list of `op`.
    pub fn set_operands(&mut self, op: OpId, values: &[Value]) {
        self.drop_operands(op);
        for &v in values {
            self.push_operand(op, v);
        }
    }

    /// Appends an operand to `op`.
    pub fn append_operand(&mut self, op: OpId, v: Value) {
        self.push_operand(op, v);
    }

    fn drop_operands(&mut self, op: OpId) {
        for i in (0..self.ops[op.index()].operands.len()).rev() {
            self.unlink_use(op, i);
        }
        let mut list = self.ops[op.index()].operands;
        self.operand_pool.clear(&mut list);
        self.ops[op.index()].operands = list;
    }

    /// Makes every use of `from` use `to` instead. O(uses of `from`).
    pub fn replace_all_uses_with(&mut self, from: Value, to: Value) {
        if from == to {
            return;
        }
        let mut from_uses = std::mem::take(&mut self.values[from.index()].uses);
        for i in 0..from_uses.len() {
            let u = self.use_pool.get(from_uses)[i];
            let pos = self.add_use(to, u);
            *self.operand_slot_mut(u.op, u.index as usize) = Operand {
                value: to,
                use_pos: pos,
            };
        }
        self.use_pool.clear(&mut from_uses);
    }

    /// Replaces the uses of `from` for which `pred` holds.
    pub fn replace_uses_where(
        &mut self,
        from: Value,
        to: Value,
        mut pred: impl FnMut(&Context, Use) -> bool,
    ) {
        let uses: Vec<Use> = self.uses(from).to_vec();
        for u in uses {
            if pred(self, u) {
                self.set_operand(u.op, u.index as usize, to);
            }
        }
    }

    /// Replaces each result of `op` with the matching value (the op stays in place).
    pub fn replace_op_results(&mut self, op: OpId, with: &[Value]) {
        let results = self.results(op).to_vec();
        assert_eq!(
            results.len(),
            with.len(),
            "replace_op_results: result count mismatch"
        );
        for (r, &w) in results.into_iter().zip(with) {
            self.replace_all_uses_with(r, w);
        }
    }

    // ----- insertion and removal --------------------------------------------------------------

    fn link(&mut self, op: OpId, block: BlockId, prev: Option<OpId>, next: Option<OpId>) {
        debug_assert!(
            self.ops[op.index()].parent.is_none(),
            "op is already in a block"
        );
        self.ops[op.index()].parent = Some(block);
        let l = &mut self.links[op.index()];
        l.set_prev(prev);
        l.set_next(next);
        match prev {
            Some(p) => self.links[p.index()].set_next(Some(op)),
            None => self.blocks[block.index()].first = Some(op),
        }
        match next {
            Some(n) => self.links[n.index()].set_prev(Some(op)),
            None => self.blocks[block.index()].last = Some(op),
        }
        self.blocks[block.index()].len += 1;
    }

    pub fn append_op(&mut self, block: BlockId, op: OpId) {
        let last = self.blocks[block.index()].last;
        self.link(op, block, last, None);
    }
    pub fn prepend_op(&mut self, block: BlockId, op: OpId) {
        let first = self.blocks[block.index()].first;
        self.link(op, block, None, first);
    }
    pub fn insert_op_before(&mut self, anchor: OpId, op: OpId) {
        let block = self.ops[anchor.index()]
            .parent
            .expect("anchor is not in a block");
        let prev = self.links[anchor.index()].prev();
        self.link(op, block, prev, Some(anchor));
    }
    pub fn insert_op_after(&mut self, anchor: OpId, op: OpId) {
        let block = self.ops[anchor.index()]
            .parent
            .expect("anchor is not in a block");
        let next = self.links[anchor.index()].next();
        self.link(op, block, Some(anchor), next);
    }

    /// Unlinks `op` from its block; it keeps its operands and regions.
    pub fn detach_op(&mut self, op: OpId) {
        let Some(block) = self.ops[op.index()].parent else {
            return;
        };
        let l = self.links[op.index()];
        let (prev, next) = (l.prev(), l.next());
        match prev {
            Some(p) => self.links[p.index()].set_next(next),
            None => self.blocks[block.index()].first = next,
        }
        match next {
            Some(n) => self.links[n.index()].set_prev(prev),
            None => self.blocks[block.index()].last = prev,
        }
        self.ops[op.index()].parent = None;
        self.links[op.index()] = OpLinks::DETACHED;
        self.blocks[block.index()].len -= 1;
    }

    /// Moves `op` right before `anchor` (possibly into another block).
    pub fn move_op_before(&mut self, op: OpId, anchor: OpId) {
        self.detach_op(op);
        self.insert_op_before(anchor, op);
    }

    /// Erases `op` and everything in its regions. Its results must have no uses left outside it.
    pub fn erase_op(&mut self, op: OpId) {
        self.detach_op(op);
        self.destroy_op(op);
    }

    fn destroy_op(&mut self, op: OpId) {
        // Drop all operand uses in the whole subtree first, so that ops inside the regions that use
        // each other's results can be destroyed in any order.
        let mut stack = vec![op];
        let mut all = Vec::new();
        while let Some(o) = stack.pop() {
            self.drop_operands(o);
            all.push(o);
            for &r in self.regions(o) {
                for &b in self.region_blocks(r) {
                    let mut cur = self.blocks[b.index()].first;
                    while let Some(c) = cur {
                        stack.push(c);
                        cur = self.links[c.index()].next();
                    }
                }
            }
        }
        for o in all {
            debug_assert!(
                self.results(o)
                    .iter()
                    .all(|r| self.values[r.index()].uses.is_empty()),
                "erasing an op whose results are still used"
            );
            let d = &mut self.ops[o.index()];
            // Counted once, should an op be destroyed twice.
            if std::mem::replace(&mut d.alive, false) {
                self.op_counts[d.name.index()] -= 1;
            }
            d.parent = None;
            let mut region_list = std::mem::take(&mut d.regions);
            self.links[o.index()] = OpLinks::DETACHED;
            let regions = self.region_pool.get(region_list).to_vec();
            self.region_pool.clear(&mut region_list);
            for r in regions {
                for b in self.take_region_block_vec(r) {
                    let bd = &mut self.blocks[b.index()];
                    bd.first = None;
                    bd.last = None;
                    bd.len = 0;
                    bd.parent = None;
                }
                self.regions[r.index()].parent = None;
            }
        }
    }

    /// Erases a block (and its ops) from its region.
    pub fn erase_block(&mut self, block: BlockId) {
        for op in self.block_op_vec(block).into_iter().rev() {
            self.erase_op(op);
        }
        if let Some(r) = self.blocks[block.index()].parent.take() {
            let mut blocks = self.region_blocks(r).to_vec();
            blocks.retain(|&b| b != block);
            self.set_region_block_list(r, &blocks);
        }
    }

    /// Moves every op of `from` to the end of `to` (block arguments are not touched). The ops'
    /// chain moves as it is, joined to `to`'s: each op only gets its new parent (no list of
    /// the ops, no unlinking and relinking one by one).
    pub fn splice_block_ops(&mut self, from: BlockId, to: BlockId) {
        if from == to {
            return;
        }
        let Some(first) = self.blocks[from.index()].first else {
            return;
        };
        let mut cur = Some(first);
        while let Some(op) = cur {
            self.ops[op.index()].parent = Some(to);
            cur = self.links[op.index()].next();
        }
        let f = &mut self.blocks[from.index()];
        let (last, len) = (f.last, f.len);
        (f.first, f.last, f.len) = (None, None, 0);
        match self.blocks[to.index()].last {
            Some(l) => {
                self.links[l.index()].set_next(Some(first));
                self.links[first.index()].set_prev(Some(l));
            }
            None => self.blocks[to.index()].first = Some(first),
        }
        let t = &mut self.blocks[to.index()];
        t.last = last;
        t.len += len;
    }

    /// Moves the blocks of region `from` to the end of region `to`.
    pub fn take_region_blocks(&mut self, from: RegionId, to: RegionId) {
        for b in self.take_region_block_vec(from) {
            self.blocks[b.index()].parent = Some(to);
            let list = &mut self.regions[to.index()].blocks;
            self.block_pool.push(list, b);
        }
    }
}

/// Iterator over the ops of a block.
///
/// It asks the CPU to fetch the data of the op [`PREFETCH_DISTANCE`] links ahead: a block's ops
/// are not always laid out in order (a region op is created after its body), the hardware
/// prefetcher then cannot guess the next op, and on a kernel larger than the cache each op
/// visited would wait on memory. The links themselves are small enough to stay in cache.
pub struct BlockOps<'a> {
    ctx: &'a Context,
    next: Option<OpId>,
    ahead: Option<OpId>,
}

const PREFETCH_DISTANCE: usize = 4;

impl Iterator for BlockOps<'_> {
    type Item = OpId;
    #[inline]
    fn next(&mut self) -> Option<OpId> {
        let cur = self.next?;
        self.next = self.ctx.links[cur.index()].next();
        if let Some(a) = self.ahead {
            prefetch(&self.ctx.ops[a.index()]);
            self.ahead = self.ctx.links[a.index()].next();
        }
        Some(cur)
    }
}

#[cfg(test)]
mod op_count_tests {
    use crate::text::parse_source;
    use crate::Context;

    /// Parsed, cloned and erased ops are counted by name; nested ops are erased with their
    /// parent; a name no op has counts 0.
    #[test]
    fn counts_live_ops_by_name() {
        let mut ctx = Context::new();
        ctx.allow_unregistered = true;
        let src = r#"
"t.a"() ({
  "t.b"() : () -> ()
  "t.a"() ({
    "t.b"() : () -> ()
  }) : () -> ()
}) : () -> ()
"#;
        let m = parse_source(&mut ctx, src, "input.mlir").expect("parses");
        let (a, b) = (ctx.op_name("t.a"), ctx.op_name("t.b"));
        let none = ctx.op_name("t.none");
        assert_eq!(
            (ctx.op_count(a), ctx.op_count(b), ctx.op_count(none)),
            (2, 2, 0)
        );
        let inner = *ctx
            .walk_pre_order(m)
            .iter()
            .rfind(|&&o| ctx.name(o) == "t.a")
            .expect("the nested t.a");
        let copy = ctx.clone_op(inner, &mut crate::IRMapping::default());
        assert_eq!((ctx.op_count(a), ctx.op_count(b)), (3, 3));
        ctx.erase_op(inner);
        assert_eq!((ctx.op_count(a), ctx.op_count(b)), (2, 2));
        ctx.erase_op(copy);
        ctx.erase_op(m);
        assert_eq!((ctx.op_count(a), ctx.op_count(b)), (0, 0));
    }

    /// `splice_block_ops` moves a block's ops after another's, in order, with their new parent;
    /// onto an empty block, from an empty block and onto itself too.
    #[test]
    fn splice_block_ops_moves_the_chain() {
        let mut ctx = Context::new();
        ctx.allow_unregistered = true;
        let loc = ctx.unknown_loc();
        let make = |ctx: &mut Context, n: usize| -> (crate::BlockId, Vec<crate::OpId>) {
            let b = ctx.create_block(&[]);
            let ops = (0..n)
                .map(|_| {
                    let o = ctx.create_op(crate::OperationState::new("t.x", loc));
                    ctx.append_op(b, o);
                    o
                })
                .collect();
            (b, ops)
        };
        let (a, a_ops) = make(&mut ctx, 3);
        let (b, b_ops) = make(&mut ctx, 2);
        let (e, _) = make(&mut ctx, 0);
        let check = |ctx: &Context, blk: crate::BlockId, want: &[crate::OpId]| {
            assert_eq!(ctx.block_op_vec(blk), want);
            assert_eq!(ctx.block_len(blk), want.len());
            assert_eq!(ctx.first_op(blk), want.first().copied());
            assert_eq!(ctx.last_op(blk), want.last().copied());
            let mut back: Vec<_> =
                std::iter::successors(ctx.last_op(blk), |&o| ctx.prev_op(o)).collect();
            back.reverse();
            assert_eq!(back, want);
            assert!(want.iter().all(|&o| ctx.parent_block(o) == Some(blk)));
        };
        ctx.splice_block_ops(b, a);
        let ab: Vec<_> = a_ops.iter().chain(&b_ops).copied().collect();
        check(&ctx, a, &ab);
        check(&ctx, b, &[]);
        ctx.splice_block_ops(a, a);
        check(&ctx, a, &ab);
        ctx.splice_block_ops(b, a);
        check(&ctx, a, &ab);
        ctx.splice_block_ops(a, e);
        check(&ctx, e, &ab);
        check(&ctx, a, &[]);
        // The moved ops stay usable: one more op after them, one detached from the middle.
        let o = ctx.create_op(crate::OperationState::new("t.y", loc));
        ctx.append_op(e, o);
        ctx.detach_op(ab[1]);
        let want: Vec<_> = [ab[0]]
            .iter()
            .chain(&ab[2..])
            .chain([&o])
            .copied()
            .collect();
        check(&ctx, e, &want);
    }

    /// `live_ops` lists attached and detached ops in index order, and no erased one.
    #[test]
    fn live_ops_are_the_unerased_ones_in_index_order() {
        let mut ctx = Context::new();
        ctx.allow_unregistered = true;
        let src = r#"
"t.a"() ({
  "t.b"() : () -> ()
  "t.c"() ({
    "t.d"() : () -> ()
  }) : () -> ()
}) : () -> ()
"#;
        let m = parse_source(&mut ctx, src, "input.mlir").expect("parses");
        let mut all = ctx.walk_pre_order(m);
        all.sort();
        let before: Vec<_> = ctx.live_ops().collect();
        assert!(before.windows(2).all(|w| w[0] < w[1]));
        // The parser may make ops of its own (a module): every op of the nest is there.
        assert!(all.iter().all(|o| before.contains(o)), "{before:?}");
        let find = |ctx: &Context, n: &str| -> crate::OpId {
            *ctx.walk_pre_order(m)
                .iter()
                .find(|&&o| ctx.name(o) == n)
                .unwrap()
        };
        let (b, c, d) = (find(&ctx, "t.b"), find(&ctx, "t.c"), find(&ctx, "t.d"));
        ctx.detach_op(b);
        ctx.erase_op(c);
        let after: Vec<_> = ctx.live_ops().collect();
        assert!(after.contains(&b) && !after.contains(&c) && !after.contains(&d));
        assert_eq!(after.len(), before.len() - 2);
    }
}
