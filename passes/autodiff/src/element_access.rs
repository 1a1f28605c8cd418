//! The `element-access-ad` pass: element and member accesses of local aggregates become
//! addressed loads and stores, `ad.load_element` / `ad.store_element`, before reverse-mode-ad.
//!
//! ```text
//! %p = qd.elem_ptr %arr[%j] : !qd.ptr<!qd.array<10xf32>>      %a = ad.load_element %arr[%j]
//! %a = qd.local_load %p : !qd.ptr<f32>                   ==>       : !qd.ptr<!qd.array<10xf32>>
//! qd.local_store %s, %p : !qd.ptr<f32>                       ad.store_element %s, %arr[%j] : ...
//! ```
//!
//! Every `qd.local_load` / `qd.local_store` through a chain of `qd.elem_ptr` / `qd.member_ptr`
//! (nested, constant or dynamic indices) becomes one op on the chain's root with the whole path:
//! array indices stay values, except constants in bounds, which become literals like struct
//! members (an out-of-bounds constant stays a value, checked at run time like any index).
//! Element ops whose base is itself such a chain are re-rooted the same way. Address ops left
//! without uses are erased. The rewrite changes nothing the kernel computes (the interpreter
//! runs both forms identically).
//!
//! Why (Slang issue #4197): reverse mode must never see a local aggregate as one SSA value, or a
//! loop that updates one element per iteration would save the whole aggregate per iteration and
//! materialise a zeroed copy of its adjoint per element read. With addressed accesses,
//! reverse-mode-ad deposits each element's adjoint straight into the element's slot of an adjoint
//! aggregate and saves only the scalar a store overwrites (see `element`). reverse-mode-ad runs
//! this rewrite on each kernel it differentiates, so pipelines need not name it; the pass exists
//! on its own for pipelines and tests.

use qd_ad::{LoadElementOp, PathIndex, StoreElementOp, LOAD_ELEMENT_OP, STORE_ELEMENT_OP};
use qd_frontend::verify::constant_int;
use qd_frontend::{
    pointee_of, ArrayType, ElemPtrOp, MemberPtrOp, ELEM_PTR_OP, KERNEL_OP, LOCAL_LOAD_OP,
    LOCAL_STORE_OP, MEMBER_PTR_OP,
};
use qd_ir::{Builder, Context, InsertPoint, OpId, Value};
use qd_pass::{ParsedOptions, Pass, PassInfo, PassOutcome, PassResult, Statistic};

pub const ELEMENT_ACCESS_PASS: &str = "element-access-ad";
const DESCRIPTION: &str =
    "Turn loads and stores through qd.elem_ptr/qd.member_ptr into ad.load_element/ad.store_element";

/// The registry entry of `element-access-ad` (anchored on `qd.kernel`).
pub fn element_access_ad_pass_info() -> PassInfo {
    PassInfo::new(ELEMENT_ACCESS_PASS, DESCRIPTION, create)
}

fn create(_: &ParsedOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(ElementAccessAdPass::default()))
}

/// What one rewrite did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ElementRewrite {
    pub loads: usize,
    pub stores: usize,
    /// Address ops erased once unused.
    pub erased: usize,
}

impl ElementRewrite {
    pub fn changed(&self) -> bool {
        self.loads + self.stores + self.erased > 0
    }
}

#[derive(Default)]
pub struct ElementAccessAdPass {
    loads: u64,
    stores: u64,
}

impl Pass for ElementAccessAdPass {
    fn name(&self) -> &'static str {
        ELEMENT_ACCESS_PASS
    }
    fn description(&self) -> &'static str {
        DESCRIPTION
    }
    fn display_name(&self) -> String {
        "ElementAccessAD".into()
    }
    fn anchor(&self) -> Option<&'static str> {
        Some(KERNEL_OP)
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        // Every rewrite starts from an address op (an access through a chain of them, or one
        // erased unused): with none alive in the context, nothing is walked. This keeps a module
        // of many kernels without local aggregates from costing a walk of each kernel.
        if !has_address_ops(ctx) {
            return Ok(PassOutcome::changed(false));
        }
        let r = rewrite_element_accesses(ctx, op);
        self.loads += r.loads as u64;
        self.stores += r.stores as u64;
        Ok(PassOutcome::changed(r.changed()))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![
            Statistic {
                name: "num-element-loads",
                description: "Number of loads made ad.load_element",
                value: self.loads,
            },
            Statistic {
                name: "num-element-stores",
                description: "Number of stores made ad.store_element",
                value: self.stores,
            },
        ]
    }
}

/// Whether any `qd.elem_ptr` or `qd.member_ptr` is alive in the context.
fn has_address_ops(ctx: &Context) -> bool {
    [ELEM_PTR_OP, MEMBER_PTR_OP]
        .into_iter()
        .any(|n| ctx.lookup_op_name(n).is_some_and(|n| ctx.op_count(n) > 0))
}

/// The root pointer and the path of address `p`, when `p` is a chain of `qd.elem_ptr` /
/// `qd.member_ptr` (None for any other pointer).
fn chain(ctx: &Context, mut p: Value) -> Option<(Value, Vec<PathIndex>)> {
    let mut rev = Vec::new();
    while let Some(d) = ctx.defining_op(p) {
        match ctx.name(d) {
            ELEM_PTR_OP if ctx.num_operands(d) == 2 => {
                let e = ElemPtrOp(d);
                let (i, base) = (e.index(ctx), e.base(ctx));
                rev.push(match constant_int(ctx, i) {
                    Some(c) if in_bounds(ctx, base, c) => PathIndex::Const(c),
                    // An index out of bounds (a constant one too: folding can make one in code
                    // that never runs) stays a value: a literal path entry must be in bounds to
                    // verify, while a value one is checked when it runs.
                    _ => PathIndex::Value(i),
                });
                p = base;
            }
            MEMBER_PTR_OP if ctx.num_operands(d) == 1 => {
                let m = MemberPtrOp(d);
                rev.push(PathIndex::Const(m.index(ctx) as i64));
                p = m.base(ctx);
            }
            _ => break,
        }
    }
    if rev.is_empty() {
        return None;
    }
    rev.reverse();
    Some((p, rev))
}

/// Whether `c` indexes the array `base` points to.
fn in_bounds(ctx: &Context, base: Value, c: i64) -> bool {
    ArrayType::from_type(ctx, pointee_of(ctx, base)).is_some_and(|a| (0..a.len(ctx)).contains(&c))
}

/// Rewrites the accesses inside `root` (a kernel, or any op); returns what it did.
pub fn rewrite_element_accesses(ctx: &mut Context, root: OpId) -> ElementRewrite {
    let mut r = ElementRewrite::default();
    let mut addresses = Vec::new();
    visit(ctx, root, &mut r, &mut addresses);
    // Address ops left without uses, innermost first.
    for &a in addresses.iter().rev() {
        if ctx.is_alive(a) && !ctx.has_uses(ctx.result(a, 0)) {
            ctx.erase_op(a);
            r.erased += 1;
        }
    }
    r
}

/// Rewrites `op`, then the ops nested in it, in pre-order. Following the block links instead of
/// collecting every op first (`walk_pre_order`) spares two vectors as long as the kernel; the ops
/// a rewrite inserts go before the one rewritten, so they are not visited, as before.
fn visit(ctx: &mut Context, op: OpId, r: &mut ElementRewrite, addresses: &mut Vec<OpId>) {
    rewrite_access(ctx, op, r, addresses);
    // A rewritten access is erased (and has no regions); erasing is its last step, so no new op
    // has taken its slot.
    if !ctx.is_alive(op) {
        return;
    }
    for ri in 0..ctx.regions(op).len() {
        let region = ctx.region(op, ri);
        for bi in 0..ctx.region_blocks(region).len() {
            let mut cur = ctx.first_op(ctx.region_blocks(region)[bi]);
            while let Some(o) = cur {
                // Taken first: rewriting `o` erases it.
                cur = ctx.next_op(o);
                visit(ctx, o, r, addresses);
            }
        }
    }
}

/// Rewrites `op` when it is an access through an address chain; records address ops.
fn rewrite_access(ctx: &mut Context, op: OpId, r: &mut ElementRewrite, addresses: &mut Vec<OpId>) {
    let name = ctx.name(op);
    if matches!(name, ELEM_PTR_OP | MEMBER_PTR_OP) {
        addresses.push(op);
        return;
    }
    let (ptr_index, is_load) = match name {
        LOCAL_LOAD_OP if ctx.num_operands(op) == 1 && ctx.num_results(op) == 1 => (0, true),
        LOCAL_STORE_OP if ctx.num_operands(op) == 2 => (1, false),
        LOAD_ELEMENT_OP if ctx.num_operands(op) >= 1 => (0, true),
        STORE_ELEMENT_OP if ctx.num_operands(op) >= 2 => (1, false),
        _ => return,
    };
    let Some((base, mut path)) = chain(ctx, ctx.operand(op, ptr_index)) else {
        return;
    };
    // An element op on an address: its own path continues the chain's.
    if let Some((_, tail)) = qd_ad::element_access(ctx, op) {
        path.extend(tail);
    }
    let loc = ctx.loc(op);
    let v = ctx.operand(op, 0);
    let mut b = Builder::new(ctx, InsertPoint::Before(op));
    let new = if is_load {
        let new = LoadElementOp::build(&mut b, base, &path, loc);
        let (old, nv) = (ctx.result(op, 0), new.result(ctx));
        ctx.replace_all_uses_with(old, nv);
        r.loads += 1;
        new.0
    } else {
        r.stores += 1;
        StoreElementOp::build(&mut b, v, base, &path, loc).0
    };
    copy_attrs(ctx, op, new);
    ctx.erase_op(op);
}

/// Keeps the discardable attributes of the rewritten access.
fn copy_attrs(ctx: &mut Context, from: OpId, to: OpId) {
    let attrs = ctx.attrs(from).to_vec();
    for (k, v) in attrs {
        let name = ctx.ident_str(k).to_string();
        ctx.set_attr(to, &name, v);
    }
}
