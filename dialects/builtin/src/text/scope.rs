//! SSA and block name scopes of the parser, as MLIR's: names are scoped per region, nested regions
//! see enclosing names, an isolated-from-above op starts a fresh scope, and forward references
//! get placeholder values that are replaced when the definition appears.

use super::lines::{At, Lines};
use super::name_table::NameTable;
use crate::builder::OperationState;
use crate::context::Context;
use crate::diagnostics::{DiagResult, Diagnostic};
use crate::entity::{BlockId, Location, OpId, RegionId, Type, Value};
use crate::fast_hash::{FastBuild, FastMap};
use indexmap::IndexMap;

/// The op name of forward-reference placeholders (never attached to a block).
const PLACEHOLDER_OP: &str = "builtin.__forward_ref";

/// `Slot::scope` of a forward reference: visible until resolved, whatever closes.
const FORWARD: u32 = u32::MAX;

#[derive(Copy, Clone)]
struct Slot {
    value: Value,
    /// The definition (or first use).
    at: At,
    /// The region scope that defined the value (or `FORWARD`).
    scope: u32,
}

/// The names of one isolated-from-above scope. Definitions are not removed when their region
/// closes; they become invisible because their scope is no longer open (cheaper than erasing).
#[derive(Default)]
struct Isolated<'a> {
    /// `%x` (result number 0), the common case.
    first: NameTable<'a, Slot>,
    /// `%x#N` for N > 0.
    rest: FastMap<(&'a str, u32), Slot>,
    /// Region scopes open in this isolated scope.
    open_regions: usize,
    /// Unresolved forward references, in order of first use: placeholder -> (name, number).
    forward: IndexMap<Value, (&'a str, u32), FastBuild>,
}

impl<'a> Isolated<'a> {
    fn get(&self, name: &str, number: u32) -> Option<Slot> {
        if number == 0 {
            self.first.get(name)
        } else {
            self.rest.get(&(name, number)).copied()
        }
    }
    fn set(&mut self, name: &'a str, number: u32, slot: Slot) {
        if number == 0 {
            self.first.set(name, slot);
        } else {
            self.rest.insert((name, number), slot);
        }
    }
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
    /// This region's scope id (index into `Scopes::open`).
    id: u32,
    blocks: FastMap<&'a str, BlockSlot>,
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
    /// Per region scope ever opened: whether it is still open.
    open: Vec<bool>,
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
        if let Some(iso) = self.isolated.last_mut() {
            iso.open_regions += 1;
        }
        let id = self.open.len() as u32;
        self.open.push(true);
        self.regions.push(RegionBlocks {
            region,
            id,
            blocks: FastMap::default(),
        });
    }

    /// Closes the innermost region scope. Returns the first block referenced but never defined.
    pub(crate) fn pop_region(&mut self) -> Option<UndefinedBlock<'a>> {
        let rb = self.regions.pop()?;
        self.open[rb.id as usize] = false;
        if let Some(iso) = self.isolated.last_mut() {
            iso.open_regions -= 1;
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
        self.isolated.last().is_some_and(|i| i.open_regions == 0)
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

    fn visible(open: &[bool], slot: &Slot) -> bool {
        slot.scope == FORWARD || open[slot.scope as usize]
    }

    /// The value visible as `name#number` and where it was defined (or first used).
    pub(crate) fn lookup(&self, name: &str, number: u32) -> Option<(Value, At)> {
        let slot = self.isolated.last()?.get(name, number)?;
        Self::visible(&self.open, &slot).then_some((slot.value, slot.at))
    }

    /// Records a forward reference to `name#number` with type `ty`: a placeholder value that
    /// `define` replaces.
    pub(crate) fn forward(
        &mut self,
        ctx: &mut Context,
        lines: &Lines,
        name: &'a str,
        number: u32,
        ty: Type,
        at: At,
    ) -> Value {
        if self.isolated.is_empty() {
            self.isolated.push(Isolated::default());
        }
        let iso = self.isolated.last_mut().expect("pushed above");
        // The placeholder's location is the one an undefined name is reported at.
        let loc = lines.resolve(ctx, at);
        let ph = ctx.create_op(OperationState::new(PLACEHOLDER_OP, loc).results(&[ty]));
        let value = ctx.result(ph, 0);
        iso.forward.insert(value, (name, number));
        iso.set(
            name,
            number,
            Slot {
                value,
                at: At::Loc(loc),
                scope: FORWARD,
            },
        );
        value
    }

    /// Defines `name#number` as `value` in the innermost region.
    pub(crate) fn define(
        &mut self,
        ctx: &mut Context,
        lines: &Lines,
        name: &'a str,
        number: u32,
        value: Value,
        at: At,
    ) -> DiagResult<()> {
        let (Some(r), Some(iso)) = (self.regions.last(), self.isolated.last_mut()) else {
            let loc = lines.resolve(ctx, at);
            return Err(Diagnostic::error(loc, "value defined outside of a region"));
        };
        let slot = Slot {
            value,
            at,
            scope: r.id,
        };
        // A name whose region closed is free again.
        let prev = iso
            .get(name, number)
            .filter(|p| Self::visible(&self.open, p));
        if let Some(p) = prev {
            Self::check_redefinition(ctx, lines, name, number, p, slot)?;
        }
        iso.set(name, number, slot);
        let Some(prev) = prev else {
            return Ok(());
        };
        // `prev` was a forward reference: its placeholder gives way to the definition.
        let ph: OpId = ctx
            .defining_op(prev.value)
            .expect("placeholder is an op result");
        ctx.replace_all_uses_with(prev.value, value);
        ctx.erase_op(ph);
        iso.forward.shift_remove(&prev.value);
        Ok(())
    }

    /// Checks that defining `slot` over the visible `prev` resolves a forward reference of the
    /// same type.
    fn check_redefinition(
        ctx: &mut Context,
        lines: &Lines,
        name: &str,
        number: u32,
        prev: Slot,
        slot: Slot,
    ) -> DiagResult<()> {
        if prev.scope != FORWARD {
            let (loc, prev_loc) = (lines.resolve(ctx, slot.at), lines.resolve(ctx, prev.at));
            return Err(Diagnostic::error(
                loc,
                format!("redefinition of SSA value '{}'", fmt_use(name, number)),
            )
            .with_note(prev_loc, "previously defined here"));
        }
        let (want, got) = (ctx.value_type(prev.value), ctx.value_type(slot.value));
        if want != got {
            let msg = format!(
                "definition of SSA value '{}' has type '{}'",
                fmt_use(name, number),
                super::type_to_string(ctx, got)
            );
            let note = format!(
                "previously used here with type '{}'",
                super::type_to_string(ctx, want)
            );
            let (loc, prev_loc) = (lines.resolve(ctx, slot.at), lines.resolve(ctx, prev.at));
            return Err(Diagnostic::error(loc, msg).with_note(prev_loc, note));
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
