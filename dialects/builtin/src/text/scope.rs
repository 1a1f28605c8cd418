//! SSA and block name scopes of the parser, as MLIR's: names are scoped per region, nested regions
//! see enclosing names, an isolated-from-above op starts a fresh scope, and forward references
//! get placeholder values that are replaced when the definition appears.

use crate::builder::OperationState;
use crate::context::Context;
use crate::diagnostics::{DiagResult, Diagnostic};
use crate::entity::{BlockId, Location, OpId, RegionId, Type, Value};
use indexmap::IndexMap;
use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A small fast hasher for name tables (FxHash); tables are never iterated for output.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(buf));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// The op name of forward-reference placeholders (never attached to a block).
const PLACEHOLDER_OP: &str = "builtin.__forward_ref";

#[derive(Copy, Clone)]
struct Slot {
    value: Value,
    loc: Location,
    forward: bool,
}

/// The definitions of one name: result number 0 inline, higher numbers (`%x#1`) in `rest`.
#[derive(Default)]
struct Entries {
    first: Option<Slot>,
    rest: Vec<Option<Slot>>,
}

impl Entries {
    fn get(&self, n: u32) -> Option<Slot> {
        if n == 0 {
            self.first
        } else {
            self.rest.get(n as usize - 1).copied().flatten()
        }
    }
    fn set(&mut self, n: u32, slot: Slot) {
        if n == 0 {
            self.first = Some(slot);
        } else {
            let i = n as usize - 1;
            if self.rest.len() <= i {
                self.rest.resize(i + 1, None);
            }
            self.rest[i] = Some(slot);
        }
    }
}

/// The names visible in one isolated-from-above scope.
#[derive(Default)]
struct Isolated<'a> {
    values: FxHashMap<Cow<'a, str>, Entries>,
    /// Names defined in each open region, to forget when the region closes.
    defs: Vec<Vec<Cow<'a, str>>>,
    /// Unresolved forward references, in order of first use: placeholder -> (name, number).
    forward: IndexMap<Value, (Cow<'a, str>, u32), BuildHasherDefault<FxHasher>>,
}

struct BlockSlot {
    block: BlockId,
    /// Offset of the definition, or of the first reference while undefined.
    offset: usize,
    defined: bool,
}

/// The block labels of one region.
struct RegionBlocks<'a> {
    region: RegionId,
    blocks: FxHashMap<&'a str, BlockSlot>,
}

/// What the scopes report back for an error about a block: its text and offset.
pub(crate) struct UndefinedBlock<'a> {
    pub name: &'a str,
    pub offset: usize,
}

#[derive(Default)]
pub(crate) struct Scopes<'a> {
    isolated: Vec<Isolated<'a>>,
    regions: Vec<RegionBlocks<'a>>,
}

fn fmt_use(name: &str, number: u32) -> String {
    if number == 0 {
        name.to_string()
    } else {
        format!("{name}#{number}")
    }
}

impl<'a> Scopes<'a> {
    /// Opens a region scope; `isolated` also starts a fresh SSA name scope.
    pub(crate) fn push(&mut self, region: RegionId, isolated: bool) {
        if isolated || self.isolated.is_empty() {
            self.isolated.push(Isolated::default());
        }
        self.isolated.last_mut().unwrap().defs.push(Vec::new());
        self.regions.push(RegionBlocks {
            region,
            blocks: FxHashMap::default(),
        });
    }

    /// Closes the innermost region scope. Returns the first block referenced but never defined.
    pub(crate) fn pop_region(&mut self) -> Option<UndefinedBlock<'a>> {
        let rb = self.regions.pop()?;
        let iso = self.isolated.last_mut()?;
        for name in iso.defs.pop().unwrap_or_default() {
            iso.values.remove(&name);
        }
        rb.blocks
            .iter()
            .filter(|(_, s)| !s.defined)
            .min_by_key(|(_, s)| s.offset)
            .map(|(n, s)| UndefinedBlock {
                name: n,
                offset: s.offset,
            })
    }

    /// Whether the innermost isolated scope has no open region left (it must then be closed).
    pub(crate) fn isolated_done(&self) -> bool {
        self.isolated.last().is_some_and(|i| i.defs.is_empty())
    }

    /// Closes the innermost isolated scope; returns its first unresolved forward reference
    /// (`%x` text and the location of its first use).
    pub(crate) fn pop_isolated(&mut self, ctx: &Context) -> Option<(String, Location)> {
        let iso = self.isolated.pop()?;
        iso.forward
            .iter()
            .next()
            .map(|(v, (name, n))| (fmt_use(name, *n), ctx.value_loc(*v)))
    }

    fn iso(&mut self) -> &mut Isolated<'a> {
        if self.isolated.is_empty() {
            self.isolated.push(Isolated::default());
            self.isolated[0].defs.push(Vec::new());
        }
        self.isolated.last_mut().unwrap()
    }

    /// The value visible as `name#number` and the location of its definition (or first use).
    pub(crate) fn lookup(&self, name: &str, number: u32) -> Option<(Value, Location)> {
        let slot = self.isolated.last()?.values.get(name)?.get(number)?;
        Some((slot.value, slot.loc))
    }

    /// Records a forward reference to `name#number` with type `ty`: a placeholder value that
    /// `define` replaces.
    pub(crate) fn forward(
        &mut self,
        ctx: &mut Context,
        name: Cow<'a, str>,
        number: u32,
        ty: Type,
        loc: Location,
    ) -> Value {
        let iso = self.iso();
        let ph = ctx.create_op(OperationState::new(PLACEHOLDER_OP, loc).results(&[ty]));
        let value = ctx.result(ph, 0);
        iso.forward.insert(value, (name.clone(), number));
        iso.values.entry(name).or_default().set(
            number,
            Slot {
                value,
                loc,
                forward: true,
            },
        );
        value
    }

    /// Defines `name#number` as `value` in the innermost region.
    pub(crate) fn define(
        &mut self,
        ctx: &mut Context,
        name: Cow<'a, str>,
        number: u32,
        value: Value,
        loc: Location,
    ) -> DiagResult<()> {
        let iso = self.iso();
        let entries = iso.values.entry(name.clone()).or_default();
        if let Some(prev) = entries.get(number) {
            if !prev.forward {
                return Err(Diagnostic::error(
                    loc,
                    format!("redefinition of SSA value '{}'", fmt_use(&name, number)),
                )
                .with_note(prev.loc, "previously defined here"));
            }
            let (want, got) = (ctx.value_type(prev.value), ctx.value_type(value));
            if want != got {
                let msg = format!(
                    "definition of SSA value '{}' has type '{}'",
                    fmt_use(&name, number),
                    super::type_to_string(ctx, got)
                );
                let note = format!(
                    "previously used here with type '{}'",
                    super::type_to_string(ctx, want)
                );
                return Err(Diagnostic::error(loc, msg).with_note(prev.loc, note));
            }
            let ph: OpId = ctx
                .defining_op(prev.value)
                .expect("placeholder is an op result");
            ctx.replace_all_uses_with(prev.value, value);
            ctx.erase_op(ph);
            iso.forward.shift_remove(&prev.value);
        }
        entries.set(
            number,
            Slot {
                value,
                loc,
                forward: false,
            },
        );
        if let Some(d) = iso.defs.last_mut() {
            d.push(name);
        }
        Ok(())
    }

    fn blocks(&mut self) -> Option<&mut RegionBlocks<'a>> {
        self.regions.last_mut()
    }

    /// The block named `name` in the current region, created (detached) when first referenced.
    pub(crate) fn block_ref(
        &mut self,
        ctx: &mut Context,
        name: &'a str,
        offset: usize,
    ) -> Option<BlockId> {
        let rb = self.blocks()?;
        if let Some(s) = rb.blocks.get(name) {
            return Some(s.block);
        }
        let block = ctx.create_block(&[]);
        rb.blocks.insert(
            name,
            BlockSlot {
                block,
                offset,
                defined: false,
            },
        );
        Some(block)
    }

    /// Defines block `name` in the current region and appends it. Err(offset of the previous
    /// definition) on redefinition.
    pub(crate) fn block_def(
        &mut self,
        ctx: &mut Context,
        name: &'a str,
        offset: usize,
    ) -> Result<BlockId, usize> {
        let Some(rb) = self.blocks() else {
            return Err(offset);
        };
        let region = rb.region;
        let block = match rb.blocks.get_mut(name) {
            Some(s) if s.defined => return Err(s.offset),
            Some(s) => {
                s.defined = true;
                s.offset = offset;
                s.block
            }
            None => {
                let block = ctx.create_block(&[]);
                rb.blocks.insert(
                    name,
                    BlockSlot {
                        block,
                        offset,
                        defined: true,
                    },
                );
                block
            }
        };
        ctx.append_block(region, block);
        Ok(block)
    }
}
