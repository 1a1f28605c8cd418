//! What a load from a local or a stack may read: the stores (pushes) that may write the same
//! place, and whether the place is surely written before any read after its allocation.
//!
//! A local is a `qd.alloca`; its places are reached through `qd.member_ptr` (a literal member)
//! and `qd.elem_ptr` (a literal or unknown element), or by the path of an `ad.load_element` /
//! `ad.store_element` (the same steps, made by element-access-ad). Two places may be the same
//! unless a member or a literal element tells them apart. A local whose address goes anywhere else escapes, and
//! nothing is known about it. A stack is an `adstack.alloca`: every push may be what
//! `load_top` reads.

use qd_ad::{PathIndex, LOAD_ELEMENT_OP, STORE_ELEMENT_OP};
use qd_adstack::{ALLOCA_OP as STACK_ALLOCA, LOAD_TOP_OP, PUSH_OP};
use qd_frontend::{
    pointee_of, ArrayType, StructType, ALLOCA_OP, ELEM_PTR_OP, LOCAL_LOAD_OP, LOCAL_STORE_OP,
    MEMBER_PTR_OP,
};
use qd_ir::{Context, OpId, Value};

/// One step from a local to a place inside it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Step {
    Member(i64),
    /// An element: its literal index, or None when not a literal.
    Elem(Option<i64>),
}

/// What a load may read.
#[derive(Clone, Debug)]
pub(crate) struct Location {
    /// The `qd.alloca` or `adstack.alloca`.
    pub root: OpId,
    /// The stores or pushes that may write the place, with the value each writes.
    pub writers: Vec<(OpId, Value)>,
    /// Whether the first access to the place after the allocation, in its block, is a store
    /// of exactly this place (so that the zero the allocation holds is never read).
    pub initialized: bool,
}

/// The location a `qd.local_load`, `ad.load_element` or `adstack.load_top` reads.
pub(crate) fn location_of(ctx: &Context, load: OpId) -> Result<Location, String> {
    let ptr = ctx.operand(load, 0);
    match ctx.name(load) {
        LOAD_TOP_OP => stack_location(ctx, ptr),
        LOCAL_LOAD_OP => local_location(ctx, resolve(ctx, ptr)),
        LOAD_ELEMENT_OP => local_location(ctx, resolve_element(ctx, load)),
        other => Err(format!("'{other}' is not a load")),
    }
}

/// The local and the steps of the one place a load or store of a local reaches; None when
/// it is not one fixed place (an element at an index that is not a literal) of a `qd.alloca`.
pub(crate) fn fixed_place(ctx: &Context, op: OpId) -> Option<(OpId, Vec<Step>)> {
    let place = match ctx.name(op) {
        LOCAL_LOAD_OP => resolve(ctx, ctx.operand(op, 0)),
        LOCAL_STORE_OP => resolve(ctx, ctx.operand(op, 1)),
        LOAD_ELEMENT_OP | STORE_ELEMENT_OP => resolve_element(ctx, op),
        _ => None,
    }?;
    place
        .1
        .iter()
        .all(|s| *s != Step::Elem(None))
        .then_some(place)
}

/// The steps of an element op's path below its base pointer (literals at struct levels are
/// members, at array levels elements).
fn element_steps(ctx: &Context, op: OpId) -> Option<Vec<Step>> {
    let (base, path) = qd_ad::element_access(ctx, op)?;
    let mut ty = pointee_of(ctx, base);
    let mut steps = Vec::with_capacity(path.len());
    for p in path {
        if let Some(a) = ArrayType::from_type(ctx, ty) {
            steps.push(Step::Elem(match p {
                PathIndex::Const(c) => Some(c),
                PathIndex::Value(v) => crate::value_bound::const_of(ctx, v),
            }));
            ty = a.elem(ctx);
        } else {
            let PathIndex::Const(c) = p else {
                return None;
            };
            ty = StructType::from_type(ctx, ty)?.member(ctx, usize::try_from(c).ok()?)?;
            steps.push(Step::Member(c));
        }
    }
    Some(steps)
}

/// The local and the steps an element op addresses.
fn resolve_element(ctx: &Context, op: OpId) -> Option<(OpId, Vec<Step>)> {
    let (base, _) = qd_ad::element_access(ctx, op)?;
    let (root, mut path) = resolve(ctx, base)?;
    path.extend(element_steps(ctx, op)?);
    Some((root, path))
}

fn stack_location(ctx: &Context, stack: Value) -> Result<Location, String> {
    let root = ctx
        .defining_op(stack)
        .filter(|&o| ctx.name(o) == STACK_ALLOCA)
        .ok_or("its stack is not an adstack.alloca")?;
    let mut writers = Vec::new();
    let mut accesses = Vec::new();
    for u in ctx.users(stack) {
        let name = ctx.name(u);
        if !name.starts_with("adstack.") || ctx.operand(u, 0) != stack {
            return Err(format!("its stack is used by '{name}'"));
        }
        if name == PUSH_OP && ctx.num_operands(u) == 2 {
            writers.push((u, ctx.operand(u, 1)));
        }
        accesses.push(u);
    }
    let initialized = first_access_is(ctx, root, &accesses, |o| {
        ctx.name(o) == PUSH_OP && writers.iter().any(|(w, _)| *w == o)
    });
    Ok(Location {
        root,
        writers,
        initialized,
    })
}

/// The local and the steps that reach `ptr`.
fn resolve(ctx: &Context, ptr: Value) -> Option<(OpId, Vec<Step>)> {
    let op = ctx.defining_op(ptr)?;
    match ctx.name(op) {
        ALLOCA_OP => Some((op, Vec::new())),
        MEMBER_PTR_OP => {
            let (root, mut path) = resolve(ctx, ctx.operand(op, 0))?;
            let k = qd_frontend::MemberPtrOp(op).index(ctx) as i64;
            path.push(Step::Member(k));
            Some((root, path))
        }
        ELEM_PTR_OP => {
            let (root, mut path) = resolve(ctx, ctx.operand(op, 0))?;
            path.push(Step::Elem(crate::value_bound::const_of(
                ctx,
                ctx.operand(op, 1),
            )));
            Some((root, path))
        }
        _ => None,
    }
}

fn may_alias(a: &[Step], b: &[Step]) -> bool {
    a.len() != b.len()
        || a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Step::Member(i), Step::Member(j)) => i == j,
            (Step::Elem(Some(i)), Step::Elem(Some(j))) => i == j,
            _ => true,
        })
}

fn is_exact(a: &[Step], b: &[Step]) -> bool {
    a == b && a.iter().all(|s| *s != Step::Elem(None))
}

fn local_location(ctx: &Context, place: Option<(OpId, Vec<Step>)>) -> Result<Location, String> {
    let (root, path) = place.ok_or("its pointer does not come from a qd.alloca")?;
    // Every access to the local: (op, the steps it reaches, whether it stores).
    let mut accesses: Vec<(OpId, Vec<Step>, bool)> = Vec::new();
    let mut work = vec![(ctx.result(root, 0), Vec::new())];
    while let Some((p, steps)) = work.pop() {
        for u in ctx.uses(p).to_vec() {
            let name = ctx.name(u.op);
            match (name, u.index) {
                (LOCAL_LOAD_OP, 0) => accesses.push((u.op, steps.clone(), false)),
                (LOCAL_STORE_OP, 1) => accesses.push((u.op, steps.clone(), true)),
                (LOAD_ELEMENT_OP, 0) | (STORE_ELEMENT_OP, 1) => {
                    let Some(tail) = element_steps(ctx, u.op) else {
                        return Err("an element access does not fit its local's type".into());
                    };
                    let mut s = steps.clone();
                    s.extend(tail);
                    // The stored value is operand 0 of both stores.
                    accesses.push((u.op, s, name == STORE_ELEMENT_OP));
                }
                (MEMBER_PTR_OP | ELEM_PTR_OP, 0) => {
                    let r = ctx.result(u.op, 0);
                    let Some((_, s)) = resolve(ctx, r) else {
                        return Err("its address is taken in a way sizing does not follow".into());
                    };
                    work.push((r, s));
                }
                _ => {
                    return Err(format!(
                        "the address of its local escapes into '{name}', so its stores are unknown"
                    ))
                }
            }
        }
    }
    let writers: Vec<(OpId, Value)> = accesses
        .iter()
        .filter(|(_, s, st)| *st && may_alias(s, &path))
        .map(|(o, _, _)| (*o, ctx.operand(*o, 0)))
        .collect();
    let touching: Vec<OpId> = accesses
        .iter()
        .filter(|(_, s, _)| may_alias(s, &path))
        .map(|(o, _, _)| *o)
        .collect();
    let initialized = first_access_is(ctx, root, &touching, |o| {
        accesses
            .iter()
            .any(|(a, s, st)| *a == o && *st && is_exact(s, &path))
    });
    Ok(Location {
        root,
        writers,
        initialized,
    })
}

/// Whether the first op after `root` in its block that holds one of `accesses` satisfies
/// `is_store`.
fn first_access_is(
    ctx: &Context,
    root: OpId,
    accesses: &[OpId],
    is_store: impl Fn(OpId) -> bool,
) -> bool {
    let mut cur = ctx.next_op(root);
    while let Some(o) = cur {
        if accesses.iter().any(|&a| ctx.is_ancestor(o, a)) {
            return is_store(o);
        }
        cur = ctx.next_op(o);
    }
    false
}
