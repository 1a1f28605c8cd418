//! Runtime error sites of a compiled kernel ([`Sites`]): every op whose failure stops a thread with
//! an error (a bounds check, an integer division or remainder, a shift, a `lowered.for`'s step, a
//! `lowered.while` cancelled at the launch's deadline), numbered in pre-order. Compiled code
//! records a site's number, the failing thread and the site's values in the worker's error record;
//! [`Sites::error`] turns that record into the interpreter's error (kind and message), and the
//! site's code in the kernel's [`SourceMap`] locates it. The numbering depends on the IR only, so a
//! kernel taken from the compile cache gets its sites again from its own IR. Shared by every
//! compiled device (qd-llvm, qd-spirv), so that they number sites and word errors alike.

use crate::error::{RuntimeError, RuntimeErrorKind};
use crate::source_map::SourceMap;
use qd_arith::names;
use qd_ir::{AttrData, Context, OpId};
use qd_lowered as lw;
use std::collections::HashMap;

/// What fails at a site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// `lowered.bounds_check` of `n` indices (values: the indices, then the extents); `local`:
    /// a local array's check (its message gives a length).
    Bounds { what: String, n: usize, local: bool },
    /// An integer division or remainder by zero.
    DivByZero,
    /// A shift of an integer of this width by the width or more (value: the amount, unsigned).
    Shift { width: u32 },
    /// A `lowered.for` whose step is not positive (value: the step).
    ForStep,
    /// A loop after which the invocation's loop iterations reached a driver's cap (values: the
    /// count, the thread). Not collected from the IR: a device whose driver has such a cap adds these
    /// sites ([`Sites::add`]) after the others, so the others keep their numbers.
    LoopLimit { limit: u32, driver: String },
    /// A `lowered.while` whose back edge polls the launch's cancel flag (no values): the launch
    /// was cancelled at its deadline while this loop ran (see [`crate::cancel`]).
    Cancelled,
}

/// One error site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub op: OpId,
    pub kind: SiteKind,
    /// Its code in the kernel's source map.
    pub code: u32,
}

/// The error sites of one kernel and its source map.
#[derive(Clone, Debug, Default)]
pub struct Sites {
    pub sites: Vec<Site>,
    by_op: HashMap<OpId, u32>,
    pub source_map: SourceMap,
}

fn is_division(name: &str) -> bool {
    matches!(
        name,
        names::DIVSI
            | names::DIVUI
            | names::REMSI
            | names::REMUI
            | names::CEILDIVSI
            | names::FLOORDIVSI
            | names::CEILDIVUI
    )
}

fn is_shift(name: &str) -> bool {
    matches!(name, names::SHLI | names::SHRSI | names::SHRUI)
}

impl Sites {
    /// The sites of `kernel` (a `lowered.kernel`), in pre-order.
    pub fn collect(ctx: &Context, kernel: OpId) -> Sites {
        let mut s = Sites::default();
        for op in ctx.walk_pre_order(kernel) {
            let name = ctx.name(op);
            let kind = if name == lw::BOUNDS_CHECK_OP {
                let what = match ctx.prop(op, "what").map(|a| ctx.attr_data(a)) {
                    Some(AttrData::String(w)) => w.clone(),
                    _ => "an array".to_string(),
                };
                SiteKind::Bounds {
                    what,
                    n: ctx.num_operands(op) / 2,
                    local: lw::BoundsCheckOp(op).is_local(ctx),
                }
            } else if is_division(name) {
                SiteKind::DivByZero
            } else if is_shift(name) {
                let ty = ctx.value_type(ctx.result(op, 0));
                let width = match ctx.type_data(ty) {
                    qd_ir::TypeData::Integer { width, .. } => *width,
                    _ => 64,
                };
                SiteKind::Shift { width }
            } else if name == lw::FOR_OP {
                SiteKind::ForStep
            } else if name == lw::WHILE_OP {
                SiteKind::Cancelled
            } else {
                continue;
            };
            let code = s.source_map.code(ctx.loc(op));
            s.by_op.insert(op, s.sites.len() as u32);
            s.sites.push(Site { op, kind, code });
        }
        s
    }

    /// Appends a site of `kind` at `op` (not found by [`Sites::of`], which keeps giving the
    /// op's IR site) and returns its number.
    pub fn add(&mut self, ctx: &Context, op: OpId, kind: SiteKind) -> u32 {
        let code = self.source_map.code(ctx.loc(op));
        self.sites.push(Site { op, kind, code });
        (self.sites.len() - 1) as u32
    }

    /// The number of the site at `op`.
    pub fn of(&self, op: OpId) -> Option<u32> {
        self.by_op.get(&op).copied()
    }

    /// The error site `site` reports with `values` in kernel `kernel`: the interpreter's kind and
    /// message, coded with the site's location code.
    pub fn error(&self, kernel: &str, site: u64, values: &[u64]) -> RuntimeError {
        let Some(s) = usize::try_from(site).ok().and_then(|i| self.sites.get(i)) else {
            return RuntimeError::device(kernel, format!("unknown error site {site}"));
        };
        let v = |i: usize| values.get(i).copied().unwrap_or(0) as i64;
        let (kind, message) = match &s.kind {
            SiteKind::Bounds { what, n, local } => {
                let idx: Vec<i64> = (0..*n).map(v).collect();
                let shape: Vec<i64> = (*n..2 * n).map(v).collect();
                let message = if *local && *n == 1 {
                    format!(
                        "index {} is out of bounds for {what} of length {}",
                        idx[0], shape[0]
                    )
                } else {
                    format!("index {idx:?} is out of bounds for {what} of shape {shape:?}")
                };
                (RuntimeErrorKind::OutOfBounds, message)
            }
            SiteKind::DivByZero => (
                RuntimeErrorKind::DivisionByZero,
                "integer division by zero".to_string(),
            ),
            SiteKind::Shift { width } => (
                RuntimeErrorKind::InvalidOperation,
                format!(
                    "shift amount {} is not less than the bit width {width}",
                    v(0) as u64
                ),
            ),
            SiteKind::ForStep => (
                RuntimeErrorKind::InvalidOperation,
                format!("lowered.for step must be positive, got {}", v(0)),
            ),
            SiteKind::LoopLimit { limit, driver } => (
                RuntimeErrorKind::Device,
                format!(
                    "{driver} stops a shader invocation after {limit} loop iterations in all \
                     (every loop it runs counts, shared by the invocations it runs together); \
                     thread {thread} reached {} by the end of this loop (counting its loops' \
                     trip counts), so its loops may have been cut short and its results would \
                     be wrong; run this kernel on --device cpu",
                    v(0) as u64,
                    thread = v(1)
                ),
            ),
            SiteKind::Cancelled => (
                RuntimeErrorKind::Cancelled,
                crate::cancel::cancelled_message(),
            ),
        };
        RuntimeError::coded(kind, kernel, s.code, message)
    }
}
