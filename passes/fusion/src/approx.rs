//! The `approx-functions` option of fuse-elementwise: the math ops of generated kernels get
//! `fastmath<afn>` (MLIR's "approximate functions" flag), which lets a backend use a faster,
//! less exact form. The cpu device then computes f32 `math.exp` and `math.exp2` in f32
//! arithmetic, within 1 ulp of the exact value (`qd_llvm::AFN_MAX_ULP`; 0.5 ulp without the
//! flag); the interpreters keep libm, and Vulkan's GLSL.std.450 Exp is approximate either way.
//! Gradients follow: exp's derivative is its result, so the gradient kernel's exp is the
//! flagged one (replayed or kept).

use qd_arith::{fastmath, FlagKind};
use qd_ir::{Context, OpId};

/// Adds `afn` to the fast-math flags of every `math.*` op inside `kernel` that has them;
/// returns how many ops it marked.
pub fn mark_approx_functions(ctx: &mut Context, kernel: OpId) -> usize {
    let fm = FlagKind::FastMath;
    let mut marked = 0;
    for op in ctx.walk_pre_order(kernel) {
        if !ctx.name(op).starts_with("math.") {
            continue;
        }
        let (in_props, attr) = match (ctx.prop(op, fm.prop_name()), ctx.attr(op, fm.prop_name())) {
            (Some(a), _) => (true, a),
            (None, Some(a)) => (false, a),
            (None, None) => continue,
        };
        let Some(bits) = fm.bits_of(ctx, attr) else {
            continue;
        };
        if bits & fastmath::AFN != 0 {
            continue;
        }
        let flagged = fm.attr(ctx, bits | fastmath::AFN);
        if in_props {
            ctx.set_prop(op, fm.prop_name(), flagged);
        } else {
            ctx.set_attr(op, fm.prop_name(), flagged);
        }
        marked += 1;
    }
    marked
}
